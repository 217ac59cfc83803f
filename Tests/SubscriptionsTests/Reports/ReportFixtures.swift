import AppStore
import Foundation
import Subscriptions

/// Hand-made histories for the report definitions: days count from 2026-01-01 (UTC).
enum ReportFixtures {
    static let origin = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    static let bundleID = "com.example.app"

    static func day(_ n: Double) -> Date { origin.addingTimeInterval(n * 86_400) }

    static func transaction(
        _ id: String, of original: String, product: String = "pro.monthly", from start: Double, days: Double = 30, trial: Bool = false,
        price: String? = "9.99", currency: String = "USD", storefront: String = "USA", refundedOn: Double? = nil,
        revocation: (type: String, percentage: Int?)? = nil
    ) -> TransactionFact {
        TransactionFact(
            transactionID: id, originalTransactionID: original, productID: product, bundleID: bundleID, environment: .production,
            subscriptionGroupID: "20500000", purchaseDate: day(start), expiresDate: day(start + days), isTrialPeriod: trial,
            cancellationDate: refundedOn.map(day), source: .v2, statedAt: origin, productType: .autoRenewable,
            priceMilliunits: trial ? 0 : price.flatMap { Decimal(string: $0) }.map { NSDecimalNumber(decimal: $0 * 1000).int64Value },
            currency: currency, storefront: storefront, revocationType: refundedOn == nil ? nil : revocation?.type,
            revocationPercentage: refundedOn == nil ? nil : revocation?.percentage)
    }

    static func chain(_ transactions: [TransactionFact], renewal: RenewalFact? = nil) -> ReportedSubscription {
        ReportedSubscription(
            originalTransactionID: transactions[0].originalTransactionID, bundleID: bundleID, environment: .production,
            transactions: transactions, renewal: renewal, isAutoRenewable: true)
    }

    /// A subscription paid monthly from `start` for `months` periods.
    static func monthly(
        _ original: String, from start: Double, months: Int, price: String = "9.99", currency: String = "USD"
    )
        -> ReportedSubscription
    {
        chain(
            (0..<months).map { index in
                transaction("\(original)-\(index)", of: original, from: start + Double(index) * 30, price: price, currency: currency)
            })
    }

    static let periods: [String: ISO8601Duration] = [
        "pro.monthly": ISO8601Duration(months: 1)!, "pro.yearly": ISO8601Duration(years: 1)!, "pro.weekly": ISO8601Duration(weeks: 1)!,
    ]

    /// Prices from Apple; EUR at 1.10 USD from day 0, GBP at 1.25; no rate for JPY.
    static func pricing(taxRates: TaxRates = TaxRates(), smallBusiness: SmallBusinessProgram = SmallBusinessProgram()) -> ReportPricing {
        ReportPricing(
            price: ReportPricing.applePrice, period: { periods[$0.productID] },
            convert: { amount, currency, _ in
                switch currency {
                case "USD": amount
                case "EUR": amount * Decimal(string: "1.10")!
                case "GBP": amount * Decimal(string: "1.25")!
                default: nil
                }
            }, taxRates: taxRates, smallBusiness: { _ in smallBusiness })
    }

    static func value(_ answer: ReportAnswer, _ index: Int = 0) -> Decimal? { answer.points[index].value }

    static func rounded(_ value: Decimal?, _ places: Int = 4) -> Decimal? {
        guard var value else { return nil }
        var result = Decimal()
        NSDecimalRound(&result, &value, places, .plain)
        return result
    }
}
