import AppStore
import Foundation
import Subscriptions
import Testing

@Suite("What a purchase cost and how long it bought")
struct ReportPricingTests {
    typealias F = ReportFixtures

    static let catalog = ProductCatalog(products: [
        Product(
            productID: "pro.yearly", bundleID: F.bundleID, type: .autoRenewable, subscriptionGroupID: "20500000",
            period: ISO8601Duration(years: 1),
            introOffer: IntroOffer(paymentMode: .payUpFront, period: ISO8601Duration(months: 3)!, price: Decimal(string: "9.99")!),
            price: StorePrice(amount: Decimal(string: "39.99")!, currency: "USD"),
            prices: ["DEU": StorePrice(amount: Decimal(string: "39.99")!, currency: "EUR")]),
        Product(
            productID: "news.weekly", bundleID: F.bundleID, type: .autoRenewable, subscriptionGroupID: "20600000",
            period: ISO8601Duration(weeks: 1),
            introOffer: IntroOffer(
                paymentMode: .payAsYouGo, period: ISO8601Duration(weeks: 1)!, periods: 4, price: Decimal(string: "0.49")!),
            price: StorePrice(amount: Decimal(string: "1.99")!, currency: "USD")),
    ])

    static func receipt(_ product: String, intro: Bool, storefront: String? = nil) -> TransactionFact {
        TransactionFact(
            transactionID: "t", originalTransactionID: "o", productID: product, bundleID: F.bundleID, environment: .production,
            purchaseDate: F.day(0), expiresDate: F.day(7), isInIntroOfferPeriod: intro, storefront: storefront)
    }

    @Test("a receipt in a paid introductory period is priced at the catalog's offer price; outside it, at the product's")
    func introPrices() {
        #expect(ReportPricing.price(of: Self.receipt("news.weekly", intro: true), catalog: Self.catalog)?.amount == Decimal(string: "0.49"))
        #expect(
            ReportPricing.price(of: Self.receipt("news.weekly", intro: false), catalog: Self.catalog)?.amount == Decimal(string: "1.99"))
        // The offer's price is in the product's default currency only: a storefront with a price
        // of its own leaves the period unpriced (and named in the reports' warnings).
        #expect(ReportPricing.price(of: Self.receipt("pro.yearly", intro: true, storefront: "DEU"), catalog: Self.catalog) == nil)
    }

    @Test("a pay-up-front period lasts the offer: Apple's offerPeriod, else the catalog's offer; otherwise the product's period")
    func periods() {
        var signed = Self.receipt("pro.yearly", intro: true)
        signed.offerDiscountType = "PAY_UP_FRONT"
        signed.offerPeriod = "P2M"
        #expect(ReportPricing.period(of: signed, catalog: Self.catalog) == ISO8601Duration(months: 2))
        #expect(ReportPricing.period(of: Self.receipt("pro.yearly", intro: true), catalog: Self.catalog) == ISO8601Duration(months: 3))
        #expect(ReportPricing.period(of: Self.receipt("pro.yearly", intro: false), catalog: Self.catalog) == ISO8601Duration(years: 1))
        // Pay as you go: each period is the product's own.
        #expect(ReportPricing.period(of: Self.receipt("news.weekly", intro: true), catalog: Self.catalog) == ISO8601Duration(weeks: 1))
    }

    @Test("an upgrade's cancellation and a family revocation are not refunds; a refund without a type is full")
    func refunds() {
        var upgraded = F.transaction("u-0", of: "u", from: 0, refundedOn: 10)
        upgraded.isUpgraded = true
        #expect(upgraded.refundedShare == nil)
        #expect(F.transaction("f-0", of: "f", from: 0, refundedOn: 10, revocation: ("FAMILY_REVOKE", nil)).refundedShare == nil)
        #expect(F.transaction("r-0", of: "r", from: 0, refundedOn: 10).refundedShare == 1)
        #expect(F.transaction("p-0", of: "p", from: 0, refundedOn: 10, revocation: ("REFUND_PRORATED", 25_000)).refundedShare == 0.25)
    }
}
