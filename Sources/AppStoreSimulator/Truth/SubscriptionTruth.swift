import Foundation

/// What subscriptiond should say about one subscription at one moment; field names and
/// conventions follow DESIGN.md's subscription JSON.
public struct SubscriptionTruth: Sendable, Hashable {
    /// The subscription's key.
    public var originalTransactionID: String
    /// The app.
    public var bundleID: String
    /// `Production` or `Sandbox`.
    public var environment: SimEnvironment
    /// The product of the current (or last) period.
    public var productID: String
    /// The subscription group.
    public var subscriptionGroupID: String
    /// The status.
    public var status: SimStatus
    /// End of the current (or last) period.
    public var expiresAt: Date
    /// Whether it will renew.
    public var autoRenew: Bool
    /// The product it renews to.
    public var autoRenewProductID: String
    /// Why it expired; `nil` while active.
    public var expirationIntent: SimExpirationIntent?
    /// The current period is a free trial (only while active).
    public var inTrial: Bool
    /// The current period uses an introductory offer (only while active).
    public var inIntroOffer: Bool
    /// End of the grace period, while Apple retries the charge.
    public var gracePeriodExpiresAt: Date?
    /// When it was refunded (only when revoked).
    public var revokedAt: Date?
    /// Apple's `cancellation_reason` (only when revoked).
    public var revocationReason: String?
    /// The newest transaction.
    public var latestTransactionID: String

    /// Whether the customer gets the content.
    public var entitled: Bool {
        status.isEntitled
    }

    /// The truth of `subscription` of a customer of `bundleID` at `date`.
    init(_ subscription: SimSubscription, bundleID: String, environment: SimEnvironment, at date: Date) {
        let latest = subscription.latest
        let renewal = subscription.renewal
        let status = subscription.status(at: date)
        let retrying = status == .gracePeriod || status == .billingRetry
        originalTransactionID = subscription.originalTransactionID
        self.bundleID = bundleID
        self.environment = environment
        productID = latest.productID
        subscriptionGroupID = subscription.groupID
        self.status = status
        expiresAt = latest.expiresDate
        autoRenew = renewal.autoRenewStatus
        autoRenewProductID = renewal.autoRenewProductID
        expirationIntent = status == .active ? nil : renewal.expirationIntent
        inTrial = status == .active && latest.isTrialPeriod
        inIntroOffer = status == .active && latest.isInIntroOfferPeriod
        gracePeriodExpiresAt = retrying ? renewal.gracePeriodExpiresDate : nil
        revokedAt = status == .revoked ? latest.cancellationDate : nil
        revocationReason = status == .revoked ? latest.cancellationReason : nil
        latestTransactionID = latest.transactionID
    }

    /// DESIGN.md's subscription JSON (without `updated_at`), nulls included.
    var json: JSONValue {
        .object([
            ("original_transaction_id", .string(originalTransactionID)),
            ("bundle_id", .string(bundleID)),
            ("environment", .string(environment.rawValue)),
            ("product_id", .string(productID)),
            ("subscription_group_id", .string(subscriptionGroupID)),
            ("status", .string(status.rawValue)),
            ("entitled", .bool(entitled)),
            ("expires_at", .string(AppleDate.rfc3339(expiresAt))),
            ("auto_renew", .bool(autoRenew)),
            ("auto_renew_product_id", .string(autoRenewProductID)),
            ("expiration_intent", expirationIntent.map(\.name).json),
            ("in_trial", .bool(inTrial)),
            ("in_intro_offer", .bool(inIntroOffer)),
            ("grace_period_expires_at", gracePeriodExpiresAt.map(AppleDate.rfc3339).json),
            ("revoked_at", revokedAt.map(AppleDate.rfc3339).json),
            ("revocation_reason", revocationReason.json),
            ("latest_transaction_id", .string(latestTransactionID)),
        ])
    }
}
