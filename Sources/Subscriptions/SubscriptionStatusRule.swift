import AppStore
import Foundation

/// Derives a subscription's status from its facts and the time (APPSTORE.md, "Subscription status").
///
/// A pure function: the same facts in any order, at the same `now`, give the same snapshot,
/// and a snapshot never says `active` once `now` reaches the period's end.
public enum SubscriptionStatusRule {
    /// The snapshot of `originalTransactionID` at `now`.
    ///
    /// Only transactions of that original transaction with an expiry date count (other
    /// purchases are not auto-renewable periods); `nil` when there are none. A `renewal` for
    /// another original transaction is ignored.
    public static func snapshot(
        originalTransactionID: String,
        transactions: [TransactionFact],
        renewal: RenewalFact?,
        at now: Date
    ) -> SubscriptionSnapshot? {
        let periods = TransactionFact.coalesced(transactions).filter {
            $0.originalTransactionID == originalTransactionID && $0.expiresDate != nil
        }
        // An upgrade ends the old period at once; the new product's transaction carries on.
        let live = periods.filter { !$0.isUpgraded }
        let pool = live.isEmpty ? periods : live
        guard let newest = pool.max(by: TransactionFact.isOlderPeriod) else { return nil }
        let renewal = renewal?.originalTransactionID == originalTransactionID ? renewal : nil

        // A refunded period covers no time, but a later purchase may still cover now.
        if let covering = pool.filter({ !$0.isRevoked }).max(by: TransactionFact.isOlderPeriod),
            let expires = covering.expiresDate, now < expires
        {
            return makeSnapshot(covering, renewal, status: .active, periods: periods)
        }
        if newest.isRevoked {
            return makeSnapshot(newest, renewal, status: .revoked, periods: periods)
        }
        return makeSnapshot(newest, renewal, status: lapsedStatus(newest, renewal, at: now), periods: periods)
    }

    /// Status of a period that has ended and was not revoked.
    private static func lapsedStatus(_ newest: TransactionFact, _ renewal: RenewalFact?, at now: Date) -> SubscriptionStatus {
        // Billing-retry info said before the newest period was even bought is about an
        // earlier lapse that a successful renewal has since ended.
        guard let renewal, renewal.isInBillingRetryPeriod, renewal.observedAt >= newest.purchaseDate else {
            return .expired
        }
        if let graceEnd = renewal.gracePeriodExpiresDate, now < graceEnd {
            return .gracePeriod
        }
        return .billingRetry
    }

    private static func makeSnapshot(
        _ current: TransactionFact,
        _ renewal: RenewalFact?,
        status: SubscriptionStatus,
        periods: [TransactionFact]
    ) -> SubscriptionSnapshot {
        let isActive = status == .active
        let isRevoked = status == .revoked
        let isRetrying = status == .gracePeriod || status == .billingRetry
        // Older receipts put the group id on some entries only; any period of the
        // subscription names the same group.
        let groupID =
            current.subscriptionGroupID
            ?? periods.filter { $0.subscriptionGroupID != nil }.max(by: TransactionFact.isOlderPeriod)?.subscriptionGroupID
        return SubscriptionSnapshot(
            originalTransactionID: current.originalTransactionID,
            bundleID: current.bundleID,
            environment: current.environment,
            productID: current.productID,
            subscriptionGroupID: groupID,
            status: status,
            expiresAt: current.expiresDate,
            autoRenew: renewal?.autoRenewStatus,
            autoRenewProductID: renewal?.autoRenewProductID,
            expirationIntent: isActive ? nil : renewal?.expirationIntent,
            inTrial: isActive && current.isTrialPeriod,
            inIntroOffer: isActive && current.isInIntroOfferPeriod,
            gracePeriodExpiresAt: isRetrying ? renewal?.gracePeriodExpiresDate : nil,
            revokedAt: isRevoked ? current.cancellationDate : nil,
            revocationReason: isRevoked ? current.cancellationReason : nil,
            latestTransactionID: current.transactionID,
            source: current.source,
            ownershipType: current.ownershipType,
            offerKind: current.offerKind,
            // The token is set at the first purchase; later periods may not repeat it.
            appAccountToken: current.appAccountToken
                ?? periods.filter { $0.appAccountToken != nil }.max(by: TransactionFact.isOlderPeriod)?.appAccountToken
        )
    }
}

extension SubscriptionStatusRule {
    /// The first instant after `now` at which a snapshot of these facts may differ from the
    /// snapshot at `now`, or nil when none can: the rule compares `now` only with period
    /// ends (`expiresDate`) and grace-period ends, so between two of those every snapshot,
    /// and everything computed from snapshots, stays the same.
    public static func nextChange(after now: Date, transactions: [TransactionFact], renewals: [RenewalFact]) -> Date? {
        let instants = transactions.lazy.compactMap(\.expiresDate) + renewals.lazy.compactMap(\.gracePeriodExpiresDate)
        return instants.filter { $0 > now }.min()
    }
}
