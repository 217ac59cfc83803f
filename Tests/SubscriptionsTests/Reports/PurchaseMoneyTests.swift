import AppStore
import Foundation
import Subscriptions
import Testing

/// What the subscription and subscriber JSON say a purchase cost and brought: Apple's price,
/// else the catalog's for the storefront; proceeds after refunds, tax and commission.
@Suite("Purchase money: price, price source and estimated proceeds")
struct PurchaseMoneyTests {
    typealias F = ReportFixtures

    static let catalog = ProductCatalog(products: [
        Product(
            productID: "pro.monthly", bundleID: F.bundleID, type: .autoRenewable, subscriptionGroupID: "20500000",
            period: ISO8601Duration(months: 1),
            introOffer: IntroOffer(
                paymentMode: .payAsYouGo, period: ISO8601Duration(months: 1)!, price: Decimal(string: "1.99")!),
            price: StorePrice(amount: Decimal(string: "9.99")!, currency: "USD"),
            prices: ["DEU": StorePrice(amount: Decimal(string: "8.99")!, currency: "EUR")]),
        Product(
            productID: "coins", bundleID: F.bundleID, type: .consumable,
            price: StorePrice(amount: Decimal(string: "4.99")!, currency: "USD")),
        Product(productID: "unpriced", bundleID: F.bundleID, type: .nonConsumable),
    ])

    static func v1(_ id: String, product: String = "pro.monthly", storefront: String? = nil, from start: Double = 0) -> TransactionFact {
        TransactionFact(
            transactionID: id, originalTransactionID: "o-\(id)", productID: product, bundleID: F.bundleID, environment: .production,
            purchaseDate: F.day(start), expiresDate: product == "pro.monthly" ? F.day(start + 30) : nil, source: .v1, storefront: storefront
        )
    }

    static func text(_ money: PurchaseMoney?) -> String? {
        money.map { "\(PurchaseMoney.text($0.price)) \($0.currency) \($0.source.rawValue) \(PurchaseMoney.text($0.proceeds))" }
    }

    static func one(_ fact: TransactionFact, _ pricing: PurchasePricing = PurchasePricing()) -> String? {
        text(
            fact.isOneTimePurchase
                ? pricing.money(ofPurchase: fact, catalog: catalog)
                : pricing.money(ofSubscription: [fact], catalog: catalog)[fact.transactionID])
    }

    @Test("Apple's milliunits are the price; else the catalog's for the storefront, else its default; else unpriced")
    func sources() {
        #expect(Self.one(F.transaction("a", of: "a", from: 0, price: "9.99", currency: "GBP")) == "9.99 GBP apple 6.993")
        #expect(Self.one(Self.v1("b", storefront: "DEU")) == "8.99 EUR catalog 6.293")
        #expect(Self.one(Self.v1("c", storefront: "FRA")) == "9.99 USD catalog 6.993")
        #expect(Self.one(Self.v1("d", product: "coins")) == "4.99 USD catalog 3.493")
        #expect(Self.one(Self.v1("e", product: "unpriced")) == nil)
        #expect(Self.one(Self.v1("f", product: "not.in.catalog")) == nil)
    }

    @Test("a v1 free trial cost nothing; a paid intro period the offer's price, unpriced where the storefront has its own price")
    func offers() {
        var trial = Self.v1("t")
        trial.isTrialPeriod = true
        #expect(Self.one(trial) == "0.00 USD catalog 0.00")
        var intro = Self.v1("i")
        intro.isInIntroOfferPeriod = true
        #expect(Self.one(intro) == "1.99 USD catalog 1.393")
        intro.storefront = "DEU"
        #expect(Self.one(intro) == nil)
    }

    @Test("a refund keeps the price charged; proceeds keep 1 - revocationPercentage of it, nothing after a full refund")
    func refunds() {
        let prorated = F.transaction("p", of: "p", from: 0, refundedOn: 10, revocation: ("REFUND_PRORATED", 50_000))
        #expect(Self.one(prorated) == "9.99 USD apple 3.497")  // 4.995 × 0.7 = 3.4965
        let full = F.transaction("f", of: "f", from: 0, refundedOn: 10, revocation: ("REFUND_FULL", nil))
        #expect(Self.one(full) == "9.99 USD apple 0.00")
        let untyped = F.transaction("u", of: "u", from: 0, refundedOn: 10)
        #expect(Self.one(untyped) == "9.99 USD apple 0.00", "a refund without revocationType is full")
        let family = F.transaction("s", of: "s", from: 0, refundedOn: 10, revocation: ("FAMILY_REVOKE", nil))
        #expect(Self.one(family) == "9.99 USD apple 6.993", "a family revocation is not a refund")
    }

    @Test("tax where the storefront has a rate; 15% commission in the Small Business Program and after a year of paid service")
    func taxAndCommission() {
        let german = F.transaction("g", of: "g", from: 0, price: "11.90", currency: "EUR", storefront: "DEU")
        let taxes = TaxRates(["DEU": Decimal(string: "0.19")!])
        #expect(Self.one(german, PurchasePricing(taxRates: taxes)) == "11.90 EUR apple 7.00")
        let member = ["com.example.app": SmallBusinessProgram(periods: [.init(from: F.day(-1), until: nil)])]
        #expect(Self.one(german, PurchasePricing(taxRates: taxes, smallBusiness: member)) == "11.90 EUR apple 8.50")
        let left = ["com.example.app": SmallBusinessProgram(periods: [.init(from: F.day(-100), until: F.day(0))])]
        #expect(Self.one(german, PurchasePricing(taxRates: taxes, smallBusiness: left)) == "11.90 EUR apple 7.00", "until is excluded")

        let thirteen = F.monthly("y", from: 0, months: 14, price: "10.00").transactions
        let money = PurchasePricing().money(ofSubscription: thirteen, catalog: Self.catalog)
        #expect(money["y-12"].map { PurchaseMoney.text($0.proceeds) } == "7.00", "starts after 360 paid days")
        #expect(money["y-13"].map { PurchaseMoney.text($0.proceeds) } == "8.50", "starts after 390 paid days")
    }

    @Test("amounts read as decimal text in units, to the thousandth, at least two decimals")
    func text() {
        let cases: [(String, String)] = [
            ("9.99", "9.99"), ("10", "10.00"), ("0", "0.00"), ("3.4965", "3.497"), ("7.1", "7.10"), ("0.005", "0.005"),
            ("1234567.8915", "1234567.892"),
        ]
        for (amount, text) in cases { #expect(PurchaseMoney.text(Decimal(string: amount)!) == text, "\(amount)") }
    }

    @Test("the fingerprint is empty for the defaults and changes with every rate and period")
    func fingerprint() {
        #expect(PurchasePricing().fingerprint.isEmpty)
        #expect(PurchasePricing(smallBusiness: ["a": SmallBusinessProgram()]).fingerprint.isEmpty)
        let taxed = PurchasePricing(taxRates: TaxRates(["DEU": Decimal(string: "0.19")!]))
        let retaxed = PurchasePricing(taxRates: TaxRates(["DEU": Decimal(string: "0.2")!]))
        let member = PurchasePricing(smallBusiness: ["a": SmallBusinessProgram(periods: [.init(from: F.day(0), until: nil)])])
        let left = PurchasePricing(smallBusiness: ["a": SmallBusinessProgram(periods: [.init(from: F.day(0), until: F.day(9))])])
        #expect(Set([taxed, retaxed, member, left].map(\.fingerprint)).count == 4)
        #expect(!taxed.fingerprint.isEmpty && taxed.fingerprint == PurchasePricing(taxRates: taxed.taxRates).fingerprint)
    }
}
