import CatalogFiles
import Foundation
import Subscriptions
import Testing

@Suite("catalog CSV")
struct CatalogCSVTests {
    private func parse(_ text: String) -> Result<[Product], CatalogProblems> {
        CatalogParser.parse(csv: Array(text.utf8)).map(\.products)
    }

    static let header = "product_id,bundle_id,type,subscription_group_id,period,intro_payment_mode,intro_period,intro_periods,intro_price"

    @Test func validCSV() throws {
        let text = """
            \(Self.header)
            com.example.pro.monthly,com.example.app,auto_renewable,20500000,P1M,free_trial,P1W,1,0.00
            com.example.pro.yearly,com.example.app,auto_renewable,20500000,P1Y,pay_up_front,P3M,1,9.99\r
            "com.example.plus.monthly",com.example.app,auto_renewable,20600000,P1M,pay_as_you_go,P1M,3,"0.99"

            com.example.coins,com.example.app,consumable,,,,,,
            """
        let products = try parse(text).get()
        #expect(
            products.map(\.productID) == [
                "com.example.pro.monthly", "com.example.pro.yearly", "com.example.plus.monthly", "com.example.coins",
            ])
        #expect(products[0].introOffer == IntroOffer(paymentMode: .freeTrial, period: ISO8601Duration("P1W")!, periods: 1, price: 0))
        #expect(products[1].introOffer?.price == Decimal(string: "9.99"))
        #expect(products[2].introOffer?.periods == 3)
        #expect(products[3] == Product(productID: "com.example.coins", bundleID: "com.example.app", type: .consumable))
    }

    @Test func sameProductsAsJSON() throws {
        let csv = """
            \(Self.header)
            com.example.pro.monthly,com.example.app,auto_renewable,20500000,P1M,free_trial,P1W,1,0.00
            """
        let json = CatalogText.file(CatalogText.product(intro: CatalogText.offer()))
        #expect(try parse(csv).get() == CatalogParser.parse(json: json).get().products)
    }

    @Test func columnsInAnyOrderWithByteOrderMarkAndExtraColumns() throws {
        let text =
            "\u{FEFF}type, Product_ID ,bundle_id,notes,period,subscription_group_id\n"
            + "auto_renewable,pro.monthly,com.example.app,\"monthly, the default\",P1M,20500000\n"
        let products = try parse(text).get()
        #expect(
            products == [
                Product(
                    productID: "pro.monthly", bundleID: "com.example.app", type: .autoRenewable,
                    subscriptionGroupID: "20500000", period: ISO8601Duration("P1M")
                )
            ])
    }

    @Test func problemsNameTheProductOrTheLine() {
        let text = """
            \(Self.header)
            com.example.a,com.example.app,auto_renewable,,P1M,free_trial,P2D,1,0.00
            ,com.example.app,consumable,,,,,,
            com.example.b,com.example.app,auto_renewable,20500000,P1M,pay_up_front,P3M,1,"4,99"
            com.example.c,com.example.app,consumable
            com.example.a,com.example.app,non_consumable,,,pay_up_front,P1M,1,1.00
            """
        #expect(
            parse(text).problemLines == [
                "com.example.a: auto_renewable product has no subscription_group_id",
                "com.example.a: free trial P2D is shorter than 3 days",
                "line 3: missing product_id",
                "com.example.b: intro price \"4,99\" is not a decimal number",
                "line 5: expected 9 fields, found 3",
                "com.example.a: intro offer on a non_consumable product (only auto_renewable products have one)",
                "com.example.a: duplicate product id (first at line 2)",
            ])
    }

    @Test func quotedFieldsMayHoldLineBreaksAndQuotes() throws {
        let text = "product_id,bundle_id,type,notes\nx,com.example.app,consumable,\"two\nlines \"\"quoted\"\"\"\ny,com.example.app,bogus,\n"
        #expect(
            parse(text).problemLines == [
                "y: unknown type \"bogus\" (expected auto_renewable, non_renewing, consumable or non_consumable)"
            ])
    }

    @Test(
        "files that cannot be read at all",
        arguments: [
            ("", "catalog: no header row"),
            (
                "com.example.pro.monthly,com.example.app,auto_renewable,20500000,P1M\n",
                "line 1: the header row lacks product_id, bundle_id, type (columns: product_id,bundle_id,type,subscription_group_id,period,intro_payment_mode,intro_period,intro_periods,intro_price,price,currency)"
            ),
            (
                "product_id,bundle_id\nx,y\n",
                "line 1: the header row lacks type (columns: product_id,bundle_id,type,subscription_group_id,period,intro_payment_mode,intro_period,intro_periods,intro_price,price,currency)"
            ),
            ("product_id,bundle_id,type\n\"x,com.example.app,consumable\n", "line 2: quoted field is never closed"),
        ])
    func unreadable(text: String, line: String) {
        #expect(parse(text).problemLines == [line])
    }

    @Test func invalidUTF8() {
        #expect(CatalogParser.parse(csv: [0x70, 0xFF, 0x0A]).problemLines == ["catalog: not UTF-8 text"])
    }
}
