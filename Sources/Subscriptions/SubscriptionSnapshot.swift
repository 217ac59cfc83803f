import AppStore
import Foundation

/// The derived state of one subscription at one moment: the `subscriptions` row.
public struct SubscriptionSnapshot: Sendable, Equatable, Hashable {
    /// The subscription's key.
    public var originalTransactionID: String
    /// The app's bundle id.
    public var bundleID: String
    /// Production or sandbox.
    public var environment: AppStoreEnvironment
    /// The product of the current (or last) period.
    public var productID: String
    /// The subscription group, when known.
    public var subscriptionGroupID: String?
    /// The status at the moment the snapshot was taken.
    public var status: SubscriptionStatus
    /// End of the current (or last) period.
    public var expiresAt: Date?
    /// Whether the subscription will renew, when known.
    public var autoRenew: Bool?
    /// The product the next period renews to.
    public var autoRenewProductID: String?
    /// Why it expired; `nil` while active.
    public var expirationIntent: ExpirationIntent?
    /// The current period is a free trial (only while active).
    public var inTrial: Bool
    /// The current period uses an introductory offer (only while active).
    public var inIntroOffer: Bool
    /// End of the billing grace period, when Apple reported one.
    public var gracePeriodExpiresAt: Date?
    /// When the purchase was refunded or revoked (only when revoked).
    public var revokedAt: Date?
    /// Apple's cancellation reason (only when revoked).
    public var revocationReason: String?
    /// The transaction the status was derived from.
    public var latestTransactionID: String
    /// Where the current period's transaction fact came from.
    public var source: FactSource
    /// Apple's `in_app_ownership_type` / `inAppOwnershipType` of the current period.
    public var ownershipType: String?
    /// The offer the current period was bought with.
    public var offerKind: OfferKind?
    /// The app's account token of the subscription, when a purchase carried one.
    public var appAccountToken: String?

    /// Whether the customer gets the content now.
    public var entitled: Bool { status.isEntitled }

    /// Builds a snapshot field by field.
    public init(
        originalTransactionID: String,
        bundleID: String,
        environment: AppStoreEnvironment,
        productID: String,
        subscriptionGroupID: String?,
        status: SubscriptionStatus,
        expiresAt: Date?,
        autoRenew: Bool?,
        autoRenewProductID: String?,
        expirationIntent: ExpirationIntent?,
        inTrial: Bool,
        inIntroOffer: Bool,
        gracePeriodExpiresAt: Date?,
        revokedAt: Date?,
        revocationReason: String?,
        latestTransactionID: String,
        source: FactSource = .v1,
        ownershipType: String? = nil,
        offerKind: OfferKind? = nil,
        appAccountToken: String? = nil
    ) {
        self.originalTransactionID = originalTransactionID
        self.bundleID = bundleID
        self.environment = environment
        self.productID = productID
        self.subscriptionGroupID = subscriptionGroupID
        self.status = status
        self.expiresAt = expiresAt
        self.autoRenew = autoRenew
        self.autoRenewProductID = autoRenewProductID
        self.expirationIntent = expirationIntent
        self.inTrial = inTrial
        self.inIntroOffer = inIntroOffer
        self.gracePeriodExpiresAt = gracePeriodExpiresAt
        self.revokedAt = revokedAt
        self.revocationReason = revocationReason
        self.latestTransactionID = latestTransactionID
        self.source = source
        self.ownershipType = ownershipType
        self.offerKind = offerKind
        self.appAccountToken = appAccountToken
    }
}
