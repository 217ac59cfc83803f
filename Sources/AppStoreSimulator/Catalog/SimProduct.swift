/// An auto-renewable subscription product the simulator sells.
///
/// Decodes from the product catalog format of DESIGN.md; `level` is an extension (Apple's
/// "level of service" inside the group: 1 is the highest) that decides upgrade versus downgrade.
public struct SimProduct: Sendable, Hashable, Codable {
    /// The product id, e.g. `com.example.pro.monthly`.
    public var productID: String
    /// The app that sells it.
    public var bundleID: String
    /// The subscription group id (numeric string, like Apple's).
    public var groupID: String
    /// The renewal period.
    public var period: ISODuration
    /// Level of service in the group: a smaller number is a higher level.
    public var level: Int
    /// The introductory offer, if any.
    public var introOffer: IntroOffer?
    /// The price as a decimal string in `currency`, e.g. `"4.99"` (v2's `price`, in milliunits),
    /// in storefronts `prices` does not name.
    public var price: String
    /// The currency of `price`.
    public var currency: String
    /// The price per storefront (`USA`, `DEU`, ...), in that storefront's currency.
    public var prices: [String: SimPrice]
    /// Billed every `period` through a commitment of this many periods (Apple's monthly-billed
    /// subscriptions with a 12-month commitment, API 1.21: `billingPlanType` MONTHLY and
    /// `commitmentInfo` on each transaction); nil: billed up front. The simulator's own: the
    /// catalog it exports for subscriptiond does not carry it (Apple's transactions do).
    public var commitmentPeriods: Int?

    /// A product from its parts.
    public init(
        productID: String,
        bundleID: String,
        groupID: String,
        period: ISODuration,
        level: Int = 1,
        introOffer: IntroOffer? = nil,
        price: String = "9.99",
        currency: String = "USD",
        prices: [String: SimPrice] = [:],
        commitmentPeriods: Int? = nil
    ) {
        self.productID = productID
        self.bundleID = bundleID
        self.groupID = groupID
        self.period = period
        self.level = level
        self.introOffer = introOffer
        self.price = price
        self.currency = currency
        self.prices = prices
        self.commitmentPeriods = commitmentPeriods
    }

    /// What a period at full price costs in `storefront`.
    public func charge(in storefront: String) -> SimCharge {
        let listed = prices[storefront]
        return SimCharge(decimal: listed?.price ?? price, currency: listed?.currency ?? currency)
    }

    /// What one period of the introductory offer (the whole offer, when paid up front) costs in
    /// `storefront`; a free trial costs nothing.
    public func introCharge(in storefront: String) -> SimCharge {
        let listed = prices[storefront]
        let currency = listed?.currency ?? currency
        guard let offer = introOffer, offer.paymentMode != .freeTrial else { return .free(currency) }
        return SimCharge(decimal: listed.map { $0.introPrice ?? offer.price } ?? offer.price, currency: currency)
    }

    enum CodingKeys: String, CodingKey {
        case productID = "product_id"
        case bundleID = "bundle_id"
        case groupID = "subscription_group_id"
        case period, level
        case introOffer = "intro_offer"
        case type, price, currency, prices
        case commitmentPeriods = "commitment_periods"
    }

    /// Decodes one catalog entry; `level` defaults to 1, `price` to `"9.99"` and `currency` to `USD`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            productID: try container.decode(String.self, forKey: .productID),
            bundleID: try container.decode(String.self, forKey: .bundleID),
            groupID: try container.decode(String.self, forKey: .groupID),
            period: try container.decode(ISODuration.self, forKey: .period),
            level: try container.decodeIfPresent(Int.self, forKey: .level) ?? 1,
            introOffer: try container.decodeIfPresent(IntroOffer.self, forKey: .introOffer),
            price: try container.decodeIfPresent(String.self, forKey: .price) ?? "9.99",
            currency: try container.decodeIfPresent(String.self, forKey: .currency) ?? "USD",
            prices: try container.decodeIfPresent([String: SimPrice].self, forKey: .prices) ?? [:],
            commitmentPeriods: try container.decodeIfPresent(Int.self, forKey: .commitmentPeriods)
        )
    }

    /// Encodes in the catalog format, as an `auto_renewable` product.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(productID, forKey: .productID)
        try container.encode(bundleID, forKey: .bundleID)
        try container.encode("auto_renewable", forKey: .type)
        try container.encode(groupID, forKey: .groupID)
        try container.encode(period, forKey: .period)
        try container.encode(level, forKey: .level)
        try container.encodeIfPresent(introOffer, forKey: .introOffer)
        // subscriptiond prices v1 receipts, which state no price, from these.
        try container.encode(price, forKey: .price)
        try container.encode(currency, forKey: .currency)
        if !prices.isEmpty { try container.encode(prices, forKey: .prices) }
    }
}
