/// What retention rules are judged on: the subscription the App Store asks about, as this
/// server's stored facts say at the time of the request.
public struct RetentionSubject: Sendable, Equatable {
    /// The subscription's current product (Apple's request names it; the facts may lag).
    public let productID: String
    /// Its status now.
    public let status: SubscriptionStatus
    /// Whether the current period is a free trial.
    public let inTrial: Bool
    /// The storefront of its newest transaction (Apple's three-letter code), when known.
    public let storefront: String?
    /// Whether it will renew, when known.
    public let autoRenew: Bool?
    /// Introductory-offer eligibility of the customer's Apple account for the products the
    /// rules ask about.
    public let eligibility: [String: EligibilityAnswer]
    /// The promotional offers the rules name whose audiences include the customer (an offer
    /// the catalog lists without rules admits everyone).
    public let admittedOffers: Set<PromotionalOfferKey>

    public init(
        productID: String, status: SubscriptionStatus, inTrial: Bool, storefront: String?, autoRenew: Bool?,
        eligibility: [String: EligibilityAnswer], admittedOffers: Set<PromotionalOfferKey>
    ) {
        self.productID = productID
        self.status = status
        self.inTrial = inTrial
        self.storefront = storefront
        self.autoRenew = autoRenew
        self.eligibility = eligibility
        self.admittedOffers = admittedOffers
    }
}
