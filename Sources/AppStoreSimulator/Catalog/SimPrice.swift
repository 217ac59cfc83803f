/// What a product costs in one storefront (the catalog's `"prices": {"DEU": {...}}`):
/// the price and its currency, and (a simulator extension) the introductory offer's price there.
public struct SimPrice: Sendable, Hashable, Codable {
    /// The price as a decimal string in `currency`, e.g. `"4.99"` or `"600"`.
    public var price: String
    /// ISO 4217, e.g. `EUR`.
    public var currency: String
    /// The introductory offer's price in `currency` (per period for pay as you go); `nil`
    /// takes the offer's own price, which only fits a free trial.
    public var introPrice: String?

    /// A price from its parts.
    public init(price: String, currency: String, introPrice: String? = nil) {
        self.price = price
        self.currency = currency
        self.introPrice = introPrice
    }

    enum CodingKeys: String, CodingKey {
        case price, currency
        case introPrice = "intro_price"
    }
}

/// A price as v2 states it: milliunits of a currency.
public struct SimCharge: Sendable, Hashable {
    /// The amount in thousandths of `currency`'s unit (`4990` for 4.99).
    public var milliunits: Int
    /// ISO 4217.
    public var currency: String

    /// A charge from its parts.
    public init(milliunits: Int, currency: String) {
        self.milliunits = milliunits
        self.currency = currency
    }

    /// `decimal` (`"4.99"`) of `currency`; an unreadable decimal is 0 (catalog prices are the
    /// simulator's own input).
    public init(decimal: String, currency: String) {
        self.init(milliunits: SignedTransactionRenderer.milliunits(decimal), currency: currency)
    }

    /// Nothing, in `currency` (a free trial).
    public static func free(_ currency: String) -> SimCharge {
        SimCharge(milliunits: 0, currency: currency)
    }
}
