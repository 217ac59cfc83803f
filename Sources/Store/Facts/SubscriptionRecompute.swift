import AppStore
import Foundation
import Postgres
import Subscriptions

/// Recomputes one `subscriptions` row from every stored fact of its original transaction.
enum SubscriptionRecompute {
    /// Rewrites the row and, when the status changed, records a status event and sends
    /// `NOTIFY subscription_status`. Returns the change, if any.
    static func run(
        environment: AppStoreEnvironment,
        originalTransactionID id: String,
        receipt: (receipt: String, observedAt: Date)?,
        notificationID: Int64?,
        now: Date,
        in session: PostgresSession
    ) throws -> StatusChange? {
        let stored = try StoredFacts.load(environment: environment, originalTransactionIDs: [id], in: session)
        guard let snapshot = SubscriptionStatusRule.snapshot(
            originalTransactionID: id, transactions: stored.transactions[id] ?? [], renewal: stored.renewals[id], at: now
        ) else { return nil }

        let previous = try session.queryFirst(PostgresQuery("""
            SELECT status FROM subscriptions WHERE environment = \(environment.rawValue) AND original_transaction_id = \(id)
            FOR UPDATE
            """).prepared()).map { try $0.decode("status", as: String.self) }.flatMap(SubscriptionStatus.init(rawValue:))

        try session.execute(PostgresQuery("""
            INSERT INTO subscriptions (
                environment, original_transaction_id, bundle_id, product_id, subscription_group_id, status, expires_at,
                auto_renew, auto_renew_product_id, expiration_intent, in_trial, in_intro_offer, grace_period_expires_at,
                revoked_at, revocation_reason, latest_transaction_id, latest_receipt, latest_receipt_observed_at)
            VALUES (\(environment.rawValue), \(id), \(snapshot.bundleID), \(snapshot.productID), \(snapshot.subscriptionGroupID),
                \(snapshot.status.rawValue), \(snapshot.expiresAt), \(snapshot.autoRenew), \(snapshot.autoRenewProductID),
                \(snapshot.expirationIntent?.rawValue), \(snapshot.inTrial), \(snapshot.inIntroOffer), \(snapshot.gracePeriodExpiresAt),
                \(snapshot.revokedAt), \(snapshot.revocationReason), \(snapshot.latestTransactionID), \(receipt?.receipt),
                \(receipt?.observedAt))
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
                updated_at = now()
            """).prepared())

        guard previous != snapshot.status else { return nil }
        try session.execute(PostgresQuery("""
            INSERT INTO status_events (environment, original_transaction_id, old_status, new_status, notification_id)
            VALUES (\(environment.rawValue), \(id), \(previous?.rawValue), \(snapshot.status.rawValue), \(notificationID))
            """).prepared())
        let payload = "\(environment.rawValue):\(id):\(snapshot.status.rawValue)"
        try session.execute(PostgresQuery("SELECT pg_notify('subscription_status', \(payload))").prepared())
        return StatusChange(originalTransactionID: id, environment: environment, oldStatus: previous, newStatus: snapshot.status)
    }
}

/// Every stored fact of a set of original transactions, loaded with two indexed queries,
/// sent unprepared so each is planned for its keys (see `FactStore.apply`).
struct StoredFacts {
    var transactions: [String: [TransactionFact]] = [:]
    var renewals: [String: RenewalFact] = [:]

    static func load(environment: AppStoreEnvironment, originalTransactionIDs ids: [String], in session: PostgresSession) throws -> StoredFacts {
        var facts = StoredFacts()
        for row in try session.query(PostgresQuery("""
            SELECT \(unescaped: TransactionFact.columns) FROM transactions
            WHERE environment = \(environment.rawValue) AND original_transaction_id = ANY(\(ids)::text[])
            """)) {
            let fact = try TransactionFact(row: row)
            facts.transactions[fact.originalTransactionID, default: []].append(fact)
        }
        for row in try session.query(PostgresQuery("""
            SELECT \(unescaped: RenewalFact.columns) FROM renewal_info
            WHERE environment = \(environment.rawValue) AND original_transaction_id = ANY(\(ids)::text[])
            """)) {
            let renewal = try RenewalFact(row: row)
            facts.renewals[renewal.originalTransactionID] = renewal
        }
        return facts
    }
}
