/// A product that is not an auto-renewable subscription: a consumable, a non-consumable or a
/// non-renewing subscription (DESIGN.md, "Entitlements, purchases and ownership").
///
/// A non-consumable with `trialOf` is the 2018 pattern for trials in apps without
/// subscriptions: a free tier-0 product that grants the entitlement `trialOf` for `trialPeriod`.
public struct SimPurchaseProduct: Sendable, Hashable, Codable {
    /// The three product types besides auto-renewable subscriptions.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Used up once bought (coins); grants nothing.
        case consumable
        /// Bought once, kept for good.
        case nonConsumable = "non_consumable"
        /// Access for a fixed `period` from the purchase, not renewed by Apple.
        case nonRenewing = "non_renewing"

        /// Apple's v2 `type`: `Consumable`, `Non-Consumable` or `Non-Renewing Subscription`.
        public var appleType: String {
            switch self {
            case .consumable: "Consumable"
            case .nonConsumable: "Non-Consumable"
            case .nonRenewing: "Non-Renewing Subscription"
            }
        }
    }

    /// The product id, e.g. `com.example.pro.lifetime`.
    public var productID: String
    /// The app that sells it.
    public var bundleID: String
    /// Consumable, non-consumable or non-renewing.
    public var kind: Kind
    /// How long one purchase of a non-renewing subscription lasts, in real time (never accelerated).
    public var period: ISODuration?
    /// The entitlement a trial product grants for `trialPeriod`.
    public var trialOf: String?
    /// How long a trial product grants `trialOf`, in real time from the purchase.
    public var trialPeriod: ISODuration?
    /// The price as a decimal string in `currency`, e.g. `"49.99"`, in storefronts `prices`
    /// does not name.
    public var price: String
    /// The currency of `price`.
    public var currency: String
    /// The price per storefront, in that storefront's currency.
    public var prices: [String: SimPrice]

    /// A product from its parts.
    public init(
        productID: String,
        bundleID: String,
        kind: Kind,
        period: ISODuration? = nil,
        trialOf: String? = nil,
        trialPeriod: ISODuration? = nil,
        price: String = "0.99",
        currency: String = "USD",
        prices: [String: SimPrice] = [:]
    ) {
        self.productID = productID
        self.bundleID = bundleID
        self.kind = kind
        self.period = period
        self.trialOf = trialOf
        self.trialPeriod = trialPeriod
        self.price = price
        self.currency = currency
        self.prices = prices
    }

    /// What one purchase costs in `storefront`.
    public func charge(in storefront: String) -> SimCharge {
        let listed = prices[storefront]
        return SimCharge(decimal: listed?.price ?? price, currency: listed?.currency ?? currency)
    }

    /// Whether the product is a trial of an entitlement (a `trial_of` product).
    public var isTrial: Bool {
        trialOf != nil && trialPeriod != nil
    }

    enum CodingKeys: String, CodingKey {
        case productID = "product_id"
        case bundleID = "bundle_id"
        case kind = "type"
        case period
        case trialOf = "trial_of"
        case trialPeriod = "trial_period"
        case price, currency, prices
    }

    /// Decodes one catalog entry; a non-renewing product needs a `period`, `price` defaults to
    /// `"0.99"` and `currency` to `USD`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            productID: try container.decode(String.self, forKey: .productID),
            bundleID: try container.decode(String.self, forKey: .bundleID),
            kind: try container.decode(Kind.self, forKey: .kind),
            period: try container.decodeIfPresent(ISODuration.self, forKey: .period),
            trialOf: try container.decodeIfPresent(String.self, forKey: .trialOf),
            trialPeriod: try container.decodeIfPresent(ISODuration.self, forKey: .trialPeriod),
            price: try container.decodeIfPresent(String.self, forKey: .price) ?? "0.99",
            currency: try container.decodeIfPresent(String.self, forKey: .currency) ?? "USD",
            prices: try container.decodeIfPresent([String: SimPrice].self, forKey: .prices) ?? [:]
        )
        if kind == .nonRenewing && period == nil {
            throw DecodingError.dataCorruptedError(
                forKey: .period, in: container, debugDescription: "\(productID): a non_renewing product needs a period")
        }
    }

    /// Encodes in the catalog format; storefront prices only when there are some.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(productID, forKey: .productID)
        try container.encode(bundleID, forKey: .bundleID)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(period, forKey: .period)
        try container.encodeIfPresent(trialOf, forKey: .trialOf)
        try container.encodeIfPresent(trialPeriod, forKey: .trialPeriod)
        try container.encode(price, forKey: .price)
        try container.encode(currency, forKey: .currency)
        if !prices.isEmpty { try container.encode(prices, forKey: .prices) }
    }
}
