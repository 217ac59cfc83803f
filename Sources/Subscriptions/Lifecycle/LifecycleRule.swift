import AppStore

/// The events one subscription's change says, from what the stored row said `before` (nil:
/// the subscription is new) to what its facts say `after`, in a fixed order. The same change
/// gives the same events whichever path applied the facts; no change gives none, so a
/// redelivered notification produces nothing.
///
/// - A new latest transaction is a new period: `renewed` for the same product (a lapsed
///   customer resubscribing included), `product_changed` for another one — `upgrade` when
///   the old product was not the one set to renew, `at_renewal` when it was (a downgrade or
///   crossgrade taking effect).
/// - The same transaction ending later is `renewal_extended` (Apple extended it).
/// - Auto-renew turning off or on: `auto_renew_disabled` / `auto_renew_enabled`; the product
///   set to renew changing within a period: `product_changed`, `renewal_preference`.
/// - Status moves: into `revoked` is `refunded`, out of it without a new period
///   `refund_reversed`; `active` into `grace_period` or `billing_retry` is `billing_issue`
///   (access continues in a grace period); out of either into `active` is `billing_recovered`;
///   `grace_period` into `billing_retry` or `expired` is `grace_period_expired`; into
///   `expired` is `expired` with the expiration intent. A move none of these explains is
///   `status_changed`.
public enum LifecycleRule {
    public static func events(before: SubscriptionMoment?, after: SubscriptionMoment) -> [LifecycleEvent] {
        guard let before else { return [LifecycleEvent(.subscriptionCreated)] }
        var events: [LifecycleEvent] = []
        let newPeriod = after.latestTransactionID != before.latestTransactionID
        if newPeriod {
            if after.productID == before.productID {
                events.append(LifecycleEvent(.renewed))
            } else {
                let reason = before.autoRenewProductID == after.productID ? "at_renewal" : "upgrade"
                events.append(LifecycleEvent(.productChanged, reason: reason, from: before.productID, to: after.productID))
            }
        } else if let old = before.expiresAt, let new = after.expiresAt, new > old {
            events.append(LifecycleEvent(.renewalExtended))
        }
        switch (before.autoRenew, after.autoRenew) {
        case (true?, false?): events.append(LifecycleEvent(.autoRenewDisabled))
        case (false?, true?): events.append(LifecycleEvent(.autoRenewEnabled))
        default: break
        }
        if !newPeriod, let old = before.autoRenewProductID, let new = after.autoRenewProductID, old != new {
            events.append(LifecycleEvent(.productChanged, reason: "renewal_preference", from: old, to: new))
        }
        if before.status != after.status {
            events += statusEvents(from: before.status, to: after, newPeriod: newPeriod)
        }
        return events
    }

    /// The events of a one-time purchase's change: `purchase_created` when it is first seen,
    /// `purchase_revoked` when it becomes refunded or revoked (both when it is first seen so).
    public static func events(before: TransactionFact?, after: TransactionFact) -> [LifecycleEvent] {
        var events: [LifecycleEvent] = []
        if before == nil { events.append(LifecycleEvent(.purchaseCreated)) }
        if after.isRevoked && !(before?.isRevoked ?? false) {
            events.append(LifecycleEvent(.purchaseRevoked, reason: after.cancellationReason))
        }
        return events
    }

    private static func statusEvents(from old: SubscriptionStatus, to after: SubscriptionMoment, newPeriod: Bool) -> [LifecycleEvent] {
        switch (old, after.status) {
        case (_, .revoked):
            return [LifecycleEvent(.refunded, reason: after.revocationReason)]
        case (.revoked, _) where !newPeriod:
            return [LifecycleEvent(.refundReversed)]
        case (.active, .gracePeriod):
            return [LifecycleEvent(.billingIssue, accessContinues: true)]
        case (.active, .billingRetry):
            return [LifecycleEvent(.billingIssue, accessContinues: false)]
        case (.gracePeriod, .billingRetry):
            return [LifecycleEvent(.gracePeriodExpired)]
        case (.gracePeriod, .expired):
            return [LifecycleEvent(.gracePeriodExpired), LifecycleEvent(.expired, reason: after.expirationIntent?.rawValue)]
        case (.gracePeriod, .active), (.billingRetry, .active):
            return [LifecycleEvent(.billingRecovered)]
        case (_, .expired):
            return [LifecycleEvent(.expired, reason: after.expirationIntent?.rawValue)]
        case (_, .active) where newPeriod:
            return []  // `renewed` or `product_changed` says it
        default:
            return [LifecycleEvent(.statusChanged)]
        }
    }
}
