import Foundation

/// Everything one customer holds that can grant an entitlement, as read from the store:
/// the input of ``EntitlementRule``.
public struct CustomerHoldings: Sendable {
    /// The customer's auto-renewable subscriptions, their status computed at the time asked.
    public var subscriptions: [SubscriptionSnapshot]
    /// The customer's one-time purchases (consumables, non-consumables, non-renewing
    /// subscriptions), one fact per transaction.
    public var oneTimePurchases: [TransactionFact]
    /// The original application versions Apple vouched for, per app and environment.
    public var versions: [OriginalApplicationVersion]
    /// Manual grants, revoked ones included.
    public var grants: [ManualGrant]

    /// Creates holdings; purchases are coalesced per transaction.
    public init(
        subscriptions: [SubscriptionSnapshot] = [], oneTimePurchases: [TransactionFact] = [],
        versions: [OriginalApplicationVersion] = [], grants: [ManualGrant] = []
    ) {
        self.subscriptions = subscriptions
        self.oneTimePurchases = TransactionFact.coalesced(oneTimePurchases.filter(\.isOneTimePurchase))
        self.versions = versions
        self.grants = grants
    }
}
