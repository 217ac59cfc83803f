import AppStore
import Foundation
import Postgres
import Subscriptions

/// Writes one `subscriptions` row as ``FactApplication`` recomputed it, and, when its status
/// moved, a status event and `NOTIFY subscription_status`.
enum SubscriptionRowWriter {
    static func write(
        _ write: ApplyPlan.SubscriptionWrite, environment: AppStoreEnvironment, receipt: (receipt: String, observedAt: Date)?,
        notificationID: Int64?, in session: PostgresSession
    ) throws {
        let snapshot = write.snapshot
        let id = snapshot.originalTransactionID
        try session.execute(
            PostgresQuery(
                """
                INSERT INTO subscriptions (
                    environment, original_transaction_id, bundle_id, product_id, subscription_group_id, status, expires_at,
                    auto_renew, auto_renew_product_id, expiration_intent, in_trial, in_intro_offer, grace_period_expires_at,
                    revoked_at, revocation_reason, latest_transaction_id, latest_receipt, latest_receipt_observed_at, due_at)
                VALUES (\(environment.rawValue), \(id), \(snapshot.bundleID), \(snapshot.productID), \(snapshot.subscriptionGroupID),
                    \(snapshot.status.rawValue), \(snapshot.expiresAt), \(snapshot.autoRenew), \(snapshot.autoRenewProductID),
                    \(snapshot.expirationIntent?.rawValue), \(snapshot.inTrial), \(snapshot.inIntroOffer), \(snapshot.gracePeriodExpiresAt),
                    \(snapshot.revokedAt), \(snapshot.revocationReason), \(snapshot.latestTransactionID), \(receipt?.receipt),
                    \(receipt?.observedAt), \(write.dueAt))
                ON CONFLICT (environment, original_transaction_id) DO UPDATE SET
                    bundle_id = EXCLUDED.bundle_id, product_id = EXCLUDED.product_id,
                    subscription_group_id = EXCLUDED.subscription_group_id, status = EXCLUDED.status,
                    expires_at = EXCLUDED.expires_at, auto_renew = EXCLUDED.auto_renew,
                    auto_renew_product_id = EXCLUDED.auto_renew_product_id, expiration_intent = EXCLUDED.expiration_intent,
                    in_trial = EXCLUDED.in_trial, in_intro_offer = EXCLUDED.in_intro_offer,
                    grace_period_expires_at = EXCLUDED.grace_period_expires_at, revoked_at = EXCLUDED.revoked_at,
                    revocation_reason = EXCLUDED.revocation_reason, latest_transaction_id = EXCLUDED.latest_transaction_id,
                    latest_receipt = CASE
                        WHEN EXCLUDED.latest_receipt IS NOT NULL AND (subscriptions.latest_receipt_observed_at IS NULL
                             OR EXCLUDED.latest_receipt_observed_at >= subscriptions.latest_receipt_observed_at)
                        THEN EXCLUDED.latest_receipt ELSE subscriptions.latest_receipt END,
                    latest_receipt_observed_at = GREATEST(subscriptions.latest_receipt_observed_at, EXCLUDED.latest_receipt_observed_at),
                    due_at = EXCLUDED.due_at,
                    updated_at = now()
                """
            ).prepared())
        guard write.statusChanged else { return }
        try session.execute(
            PostgresQuery(
                """
                INSERT INTO status_events (environment, original_transaction_id, old_status, new_status, notification_id)
                VALUES (\(environment.rawValue), \(id), \(write.previousStatus?.rawValue), \(snapshot.status.rawValue), \(notificationID))
                """
            ).prepared())
        let payload = "\(environment.rawValue):\(id):\(snapshot.status.rawValue)"
        try session.execute(PostgresQuery("SELECT pg_notify('subscription_status', \(payload))").prepared())
    }
}
