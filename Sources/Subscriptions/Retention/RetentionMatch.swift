/// When a retention rule applies: every condition given must hold; one not given holds for
/// everyone.
public struct RetentionMatch: Sendable, Hashable {
    /// The subscription's current product.
    public var productID: String?
    /// Its status now.
    public var status: SubscriptionStatus?
    /// Whether the current period is a free trial.
    public var inTrial: Bool?
    /// The storefront (Apple's three-letter code, upper case).
    public var storefront: String?
    /// Whether it will renew (the App Store also asks after the customer turned renewal off).
    public var autoRenew: Bool?
    /// The customer's introductory-offer eligibility per product.
    public var eligibility: [String: EligibilityAnswer]

    public init(
        productID: String? = nil, status: SubscriptionStatus? = nil, inTrial: Bool? = nil, storefront: String? = nil,
        autoRenew: Bool? = nil, eligibility: [String: EligibilityAnswer] = [:]
    ) {
        self.productID = productID
        self.status = status
        self.inTrial = inTrial
        self.storefront = storefront
        self.autoRenew = autoRenew
        self.eligibility = eligibility
    }

    /// Whether every condition holds for `subject`. A condition on a fact the server does not
    /// know (a storefront or renewal state Apple never sent) does not hold.
    public func holds(for subject: RetentionSubject) -> Bool {
        if let productID, productID != subject.productID { return false }
        if let status, status != subject.status { return false }
        if let inTrial, inTrial != subject.inTrial { return false }
        if let storefront, storefront != subject.storefront { return false }
        if let autoRenew, autoRenew != subject.autoRenew { return false }
        return eligibility.allSatisfy { productID, answer in subject.eligibility[productID] == answer }
    }
}
