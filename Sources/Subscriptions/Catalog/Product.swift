/// One in-app purchase product of the catalog (DESIGN.md, "Product catalog file").
///
/// Encodes with the catalog file's field names, so `products list --json` prints what
/// `products import` reads. Decoding checks types only: files go through `CatalogParser`,
/// which checks Apple's rules.
public struct Product: Sendable, Hashable, Codable {
    /// The App Store product id, unique in the catalog.
    public var productID: String
    /// The app the product belongs to.
    public var bundleID: String
    /// The kind of product.
    public var type: ProductType
    /// The subscription group (auto-renewable products only).
    public var subscriptionGroupID: String?
    /// The renewal period (auto-renewable products), or how long a non-renewing subscription lasts.
    public var period: ISO8601Duration?
    /// The introductory offer, when one is configured (auto-renewable products only).
    public var introOffer: IntroOffer?
    /// The entitlement this product is a free trial of (a tier-0 non-consumable, the 2018
    /// pattern for trials in apps without subscriptions).
    public var trialOf: String?
    /// How long the trial lasts from its purchase, by the server's clock.
    public var trialPeriod: ISO8601Duration?
    /// The promotional offers the server signs, and for whom (auto-renewable products only;
    /// nil: any offer id, for anyone).
    public var promotionalOffers: [PromotionalOfferRule]?
    /// What the product costs where no storefront price is given (`"price"`, `"currency"`);
    /// what a purchase Apple does not price is taken to have cost.
    public var price: StorePrice?
    /// What it costs per storefront (`"prices": {"DEU": {"price": "9.99", "currency": "EUR"}}`).
    public var prices: [String: StorePrice]?

    /// Builds a product field by field; `CatalogParser` is where the rules are checked.
    public init(
        productID: String,
        bundleID: String,
        type: ProductType,
        subscriptionGroupID: String? = nil,
        period: ISO8601Duration? = nil,
        introOffer: IntroOffer? = nil,
        trialOf: String? = nil,
        trialPeriod: ISO8601Duration? = nil,
        promotionalOffers: [PromotionalOfferRule]? = nil,
        price: StorePrice? = nil,
        prices: [String: StorePrice]? = nil
    ) {
        self.productID = productID
        self.bundleID = bundleID
        self.type = type
        self.subscriptionGroupID = subscriptionGroupID
        self.period = period
        self.introOffer = introOffer
        self.trialOf = trialOf
        self.trialPeriod = trialPeriod
        self.promotionalOffers = promotionalOffers
        self.price = price
        self.prices = prices
    }

    /// The catalog's price in `storefront` (nil: unknown), else its price.
    public func price(in storefront: String?) -> StorePrice? {
        storefront.flatMap { prices?[$0] } ?? price
    }

    private enum CodingKeys: String, CodingKey {
        case productID = "product_id"
        case bundleID = "bundle_id"
        case type
        case subscriptionGroupID = "subscription_group_id"
        case period
        case introOffer = "intro_offer"
        case trialOf = "trial_of"
        case trialPeriod = "trial_period"
        case promotionalOffers = "promotional_offers"
        case price, currency, prices
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        productID = try container.decode(String.self, forKey: .productID)
        bundleID = try container.decode(String.self, forKey: .bundleID)
        type = try container.decode(ProductType.self, forKey: .type)
        subscriptionGroupID = try container.decodeIfPresent(String.self, forKey: .subscriptionGroupID)
        period = try container.decodeIfPresent(ISO8601Duration.self, forKey: .period)
        introOffer = try container.decodeIfPresent(IntroOffer.self, forKey: .introOffer)
        trialOf = try container.decodeIfPresent(String.self, forKey: .trialOf)
        trialPeriod = try container.decodeIfPresent(ISO8601Duration.self, forKey: .trialPeriod)
        promotionalOffers = try container.decodeIfPresent([PromotionalOfferRule].self, forKey: .promotionalOffers)
        if let text = try container.decodeIfPresent(String.self, forKey: .price) {
            guard case .price(let amount) = CatalogPrice.read(text) else {
                throw DecodingError.dataCorruptedError(forKey: .price, in: container, debugDescription: "price \(text) is not a decimal")
            }
            price = StorePrice(amount: amount, currency: try container.decode(String.self, forKey: .currency))
        }
        prices = try container.decodeIfPresent([String: StorePrice].self, forKey: .prices)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(productID, forKey: .productID)
        try container.encode(bundleID, forKey: .bundleID)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(subscriptionGroupID, forKey: .subscriptionGroupID)
        try container.encodeIfPresent(period, forKey: .period)
        try container.encodeIfPresent(introOffer, forKey: .introOffer)
        try container.encodeIfPresent(trialOf, forKey: .trialOf)
        try container.encodeIfPresent(trialPeriod, forKey: .trialPeriod)
        try container.encodeIfPresent(promotionalOffers, forKey: .promotionalOffers)
        try container.encodeIfPresent(price.map { "\($0.amount)" }, forKey: .price)
        try container.encodeIfPresent(price?.currency, forKey: .currency)
        try container.encodeIfPresent(prices, forKey: .prices)
    }
}
