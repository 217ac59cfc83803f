import Foundation

/// The introductory offer configured for an auto-renewable product.
public struct IntroOffer: Sendable, Hashable {
    /// How the customer pays during the offer.
    public var paymentMode: IntroPaymentMode
    /// The length of one offer period.
    public var period: ISO8601Duration
    /// How many offer periods the customer gets (at least 1).
    public var periods: Int
    /// The price of one offer period (pay as you go) or of the whole offer; 0 for free trials.
    public var price: Decimal

    /// Builds an offer field by field; `CatalogParser` is where the rules are checked.
    public init(paymentMode: IntroPaymentMode, period: ISO8601Duration, periods: Int = 1, price: Decimal) {
        self.paymentMode = paymentMode
        self.period = period
        self.periods = periods
        self.price = price
    }

    /// The whole offer: `period` repeated `periods` times (`nil` only when `periods` is below 1).
    public var totalDuration: ISO8601Duration? {
        period.repeated(periods)
    }
}
