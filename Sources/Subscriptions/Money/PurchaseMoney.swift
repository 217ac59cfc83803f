import Foundation

/// What one purchase cost and is estimated to bring, as the subscription and subscriber JSON
/// show it (`price`, `currency`, `price_source`, `proceeds`).
public struct PurchaseMoney: Sendable, Equatable {
    /// What the customer was charged, in `currency`'s units: a refund does not change it.
    public let price: Decimal
    /// ISO 4217 currency of `price` and `proceeds`.
    public let currency: String
    /// Apple's word or the catalog's.
    public let source: ReportPricing.PriceSource
    /// Estimated proceeds: what the customer kept paying (all of the price, `1 -
    /// revocationPercentage` of it after a prorated refund, nothing after a full one),
    /// without tax, less Apple's commission.
    public let proceeds: Decimal

    public init(price: Decimal, currency: String, source: ReportPricing.PriceSource, proceeds: Decimal) {
        self.price = price
        self.currency = currency
        self.source = source
        self.proceeds = proceeds
    }

    /// `9.99 EUR (apple)`: the price, its currency and where it came from.
    public var priceText: String {
        "\(Self.text(price)) \(currency) (\(source.rawValue))"
    }

    /// `7.14 EUR`: the estimated proceeds.
    public var proceedsText: String {
        "\(Self.text(proceeds)) \(currency)"
    }

    /// `amount` as decimal text in units, to the thousandth (Apple's milliunits): at least
    /// two decimals, the third only when needed (`9.99`, `7.136`, `0.00`).
    public static func text(_ amount: Decimal) -> String {
        var value = amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 3, .plain)
        let parts = rounded.description.split(separator: ".", maxSplits: 1)
        let whole = parts.first.map(String.init) ?? "0"
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        while fraction.count < 2 { fraction += "0" }
        return "\(whole).\(fraction)"
    }
}
