/// One thing that happened to a subscription or a purchase, as the app's backend hears of
/// it (DESIGN.md, "Lifecycle events"): derived from the change between the stored state
/// before and after a transaction of facts (``LifecycleRule``), never from which notification
/// carried the facts, so every path that applies facts says the same thing for the same change.
public struct LifecycleEvent: Sendable, Equatable {
    /// The webhook `type`.
    public enum Kind: String, Sendable, CaseIterable {
        case subscriptionCreated = "subscription_created"
        case renewed
        case autoRenewDisabled = "auto_renew_disabled"
        case autoRenewEnabled = "auto_renew_enabled"
        case productChanged = "product_changed"
        case billingIssue = "billing_issue"
        case billingRecovered = "billing_recovered"
        case gracePeriodExpired = "grace_period_expired"
        case expired
        case refunded
        case refundReversed = "refund_reversed"
        case renewalExtended = "renewal_extended"
        /// Any other status move.
        case statusChanged = "status_changed"
        case userLinked = "user_linked"
        case userUnlinked = "user_unlinked"
        /// A one-time purchase seen for the first time.
        case purchaseCreated = "purchase_created"
        /// A one-time purchase refunded or revoked.
        case purchaseRevoked = "purchase_revoked"
        /// One of a customer's entitlements began or ended (``EntitlementChanges``).
        case entitlementChanged = "entitlement_changed"
        /// A parent or guardian withdrew consent for the app (RESCIND_CONSENT): names the users
        /// of that Apple account.
        case consentRescinded = "consent_rescinded"
        /// Advanced Commerce: the subscription's metadata changed (METADATA_UPDATE).
        case metadataUpdated = "metadata_updated"
        /// Advanced Commerce: the subscription was migrated (MIGRATION).
        case migrated
        /// Advanced Commerce: the subscription's price changed (PRICE_CHANGE).
        case priceChanged = "price_changed"
    }

    public let kind: Kind
    /// Why, where Apple says: the expiration intent of `expired`, the revocation reason of
    /// `refunded`, what moved the product of `product_changed` (`renewal_preference`,
    /// `upgrade`, `at_renewal`).
    public var reason: String?
    /// The product before and after (`product_changed`).
    public var from: String?
    public var to: String?
    /// Whether the customer keeps access while Apple retries (`billing_issue`: a grace period).
    public var accessContinues: Bool?

    public init(_ kind: Kind, reason: String? = nil, from: String? = nil, to: String? = nil, accessContinues: Bool? = nil) {
        self.kind = kind
        self.reason = reason
        self.from = from
        self.to = to
        self.accessContinues = accessContinues
    }
}
