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
        promotionalOffers: [PromotionalOfferRule]? = nil
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
    }
}
