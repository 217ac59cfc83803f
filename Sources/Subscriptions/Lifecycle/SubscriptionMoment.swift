import AppStore
import Foundation

/// What a stored subscription said at one moment, as far as its lifecycle events compare:
/// the `subscriptions` row before facts were applied, and the snapshot after.
public struct SubscriptionMoment: Sendable, Equatable {
    public var status: SubscriptionStatus
    public var productID: String
    public var expiresAt: Date?
    public var autoRenew: Bool?
    public var autoRenewProductID: String?
    public var latestTransactionID: String
    public var expirationIntent: ExpirationIntent?
    public var revocationReason: String?

    public init(
        status: SubscriptionStatus, productID: String, expiresAt: Date?, autoRenew: Bool?, autoRenewProductID: String?,
        latestTransactionID: String, expirationIntent: ExpirationIntent?, revocationReason: String?
    ) {
        self.status = status
        self.productID = productID
        self.expiresAt = expiresAt
        self.autoRenew = autoRenew
        self.autoRenewProductID = autoRenewProductID
        self.latestTransactionID = latestTransactionID
        self.expirationIntent = expirationIntent
        self.revocationReason = revocationReason
    }

    /// The moment a snapshot describes.
    public init(_ snapshot: SubscriptionSnapshot) {
        self.init(
            status: snapshot.status, productID: snapshot.productID, expiresAt: snapshot.expiresAt, autoRenew: snapshot.autoRenew,
            autoRenewProductID: snapshot.autoRenewProductID, latestTransactionID: snapshot.latestTransactionID,
            expirationIntent: snapshot.expirationIntent, revocationReason: snapshot.revocationReason)
    }
}
