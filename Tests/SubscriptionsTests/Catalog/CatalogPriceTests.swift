import AppStore
import CatalogFiles
import Foundation
import Subscriptions
import Testing

/// Catalog prices (DESIGN.md, "Money and reports"): what a purchase Apple does not price cost.
@Suite("catalog prices")
struct CatalogPriceTests {
    @Test("a default price and per-storefront prices read, write back, and price a purchase by its storefront")
    func readAndWrittenBack() throws {
        let file = CatalogText.file(
            CatalogText.product(
                extra:
                    #""price": "9.99", "currency": "USD", "prices": {"DEU": {"price": "9.99", "currency": "EUR"}, "JPN": {"price": 1500, "currency": "JPY"}}"#
            ))
        let product = try #require(try CatalogParser.parse(json: file).get().products.first)
        #expect(product.price == StorePrice(amount: Decimal(string: "9.99")!, currency: "USD"))
        #expect(product.price(in: "DEU") == StorePrice(amount: Decimal(string: "9.99")!, currency: "EUR"))
        #expect(product.price(in: "JPN") == StorePrice(amount: 1500, currency: "JPY"))
        #expect(product.price(in: "FRA") == product.price)
        #expect(product.price(in: nil) == product.price)
        let encoded = try JSONEncoder().encode(["products": [product]])
        #expect(try CatalogParser.parse(json: Array(encoded)).get().products == [product])

        let catalog = ProductCatalog(products: [product])
        let v1 = TransactionFact(
            transactionID: "1", originalTransactionID: "1", productID: product.productID, bundleID: product.bundleID,
            environment: .production, purchaseDate: Date(), source: .v1)
        #expect(ReportPricing.price(of: v1, catalog: catalog).map { "\($0.amount) \($0.currency) \($0.source)" } == "9.99 USD catalog")
        var german = v1
        german.storefront = "DEU"
        #expect(ReportPricing.price(of: german, catalog: catalog).map { "\($0.amount) \($0.currency)" } == "9.99 EUR")
        var v2 = german
        (v2.priceMilliunits, v2.currency) = (4_990, "EUR")
        #expect(ReportPricing.price(of: v2, catalog: catalog).map { "\($0.amount) \($0.currency) \($0.source)" } == "4.99 EUR apple")
    }

    @Test("a price that is not a decimal, a negative one, a currency that is not three letters, or one without the other is refused")
    func refused() {
        let cases: [(String, String)] = [
            (#""price": "9,99", "currency": "USD""#, #"price "9,99" is not a decimal such as 9.99"#),
            (#""price": "-1", "currency": "USD""#, "price -1 is negative"),
            (#""price": "9.99", "currency": "usd""#, #"currency "usd" is not three upper-case letters such as EUR"#),
            (#""price": "9.99""#, "price given without currency"),
            (#""currency": "USD""#, "currency given without price"),
            (#""prices": {"de": {"price": "1", "currency": "EUR"}}"#, #"prices has "de", which is not a storefront code"#),
            (#""prices": {"DEU": {"price": "1"}}"#, "prices.DEU.price given without prices.DEU.currency"),
            (#""prices": {"DEU": "9.99 EUR"}"#, "prices.DEU must be an object with price and currency"),
            (#""prices": [1]"#, "prices must be an object of storefront codes"),
        ]
        for (extra, message) in cases {
            let lines = CatalogParser.parse(json: CatalogText.file(CatalogText.product(extra: extra))).problemLines
            #expect(lines.contains { $0.contains(message) }, "\(extra): \(lines)")
        }
    }

    @Test("CSV takes price and currency columns")
    func csv() throws {
        let text =
            "product_id,bundle_id,type,subscription_group_id,period,price,currency\np,com.example.app,auto_renewable,1,P1M,4.99,GBP\n"
        let product = try #require(try CatalogParser.parse(Array(text.utf8), fileName: "catalog.csv").get().products.first)
        #expect(product.price == StorePrice(amount: Decimal(string: "4.99")!, currency: "GBP"))
    }
}
