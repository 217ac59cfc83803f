import AppStore
import Foundation
import Postgres
import Subscriptions

/// Recomputes one `subscriptions` row from every stored fact of its original transaction.
enum SubscriptionRecompute {
    /// What recomputing one subscription changed.
    struct Outcome {
        /// The status change, if the status moved.
        var status: StatusChange?
        /// The lifecycle events of the change (``LifecycleRule``); none when nothing changed.
        var events: [LifecycleEvent]
    }

    /// Rewrites the row from its stored facts, read here, and, when the status changed, records
    /// a status event and sends `NOTIFY subscription_status`. Nil when the facts make no subscription.
    static func run(
        environment: AppStoreEnvironment,
        originalTransactionID id: String,
        receipt: (receipt: String, observedAt: Date)?,
        notificationID: Int64?,
        now: Date,
        in session: PostgresSession
    ) throws -> Outcome? {
        try run(
            environment: environment, originalTransactionID: id,
            stored: try StoredFacts.load(environment: environment, originalTransactionIDs: [id], in: session), receipt: receipt,
            notificationID: notificationID, now: now, in: session)
    }

    /// ``run(environment:originalTransactionID:receipt:notificationID:now:in:)`` from `stored`,
    /// every stored fact of the subscription as the caller's transaction has written it.
    static func run(
        environment: AppStoreEnvironment,
        originalTransactionID id: String,
        stored: StoredFacts,
        receipt: (receipt: String, observedAt: Date)?,
        notificationID: Int64?,
        now: Date,
        in session: PostgresSession
    ) throws -> Outcome? {
        guard
            let snapshot = SubscriptionStatusRule.snapshot(
                originalTransactionID: id, transactions: stored.transactions[id] ?? [], renewal: stored.renewals[id], at: now
            )
        else { return nil }

        let before = try session.queryFirst(
            PostgresQuery(
                """
                SELECT status, product_id, expires_at, auto_renew, auto_renew_product_id, latest_transaction_id,
                       expiration_intent, revocation_reason
                FROM subscriptions WHERE environment = \(environment.rawValue) AND original_transaction_id = \(id)
                FOR UPDATE
                """
            ).prepared()
        ).map(SubscriptionMoment.init(row:))
        let previous = before?.status
        let events = LifecycleRule.events(before: before, after: SubscriptionMoment(snapshot))
        // When time alone changes the status next, for the sweep.
        let dueAt = SubscriptionStatusRule.nextChange(
            after: now, transactions: stored.transactions[id] ?? [], renewals: stored.renewals[id].map { [$0] } ?? [])

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
                    \(receipt?.observedAt), \(dueAt))
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

        guard previous != snapshot.status else { return Outcome(status: nil, events: events) }
        try session.execute(
            PostgresQuery(
                """
                INSERT INTO status_events (environment, original_transaction_id, old_status, new_status, notification_id)
                VALUES (\(environment.rawValue), \(id), \(previous?.rawValue), \(snapshot.status.rawValue), \(notificationID))
                """
            ).prepared())
        let payload = "\(environment.rawValue):\(id):\(snapshot.status.rawValue)"
        try session.execute(PostgresQuery("SELECT pg_notify('subscription_status', \(payload))").prepared())
        return Outcome(
            status: StatusChange(originalTransactionID: id, environment: environment, oldStatus: previous, newStatus: snapshot.status),
            events: events)
    }
}

extension SubscriptionMoment {
    /// Reads the lifecycle columns of a `subscriptions` row.
    init(row: PostgresRow) throws {
        let status: String = try row.decode("status")
        guard let parsed = SubscriptionStatus(rawValue: status) else { throw StoreError("unknown status '\(status)' in subscriptions") }
        self.init(
            status: parsed, productID: try row.decode("product_id"), expiresAt: try row.decode("expires_at"),
            autoRenew: try row.decode("auto_renew"), autoRenewProductID: try row.decode("auto_renew_product_id"),
            latestTransactionID: try row.decode("latest_transaction_id"),
            expirationIntent: try row.decode("expiration_intent", as: String?.self).flatMap(ExpirationIntent.init(rawValue:)),
            revocationReason: try row.decode("revocation_reason"))
    }
}

/// Every stored fact of a set of original transactions, loaded with two indexed queries,
/// sent unprepared so each is planned for its keys (see `FactStore.apply`).
struct StoredFacts {
    /// Transactions by original transaction id.
    var transactions: [String: [TransactionFact]] = [:]
    /// Renewal info by original transaction id.
    var renewals: [String: RenewalFact] = [:]
    /// The original transaction id each transaction is filed under in `transactions`.
    private var originalOfTransaction: [String: String] = [:]

    /// Loads the facts of `ids`, and the transactions `transactionIDs` whatever original
    /// transaction their rows name (those a merge compares with).
    static func load(
        environment: AppStoreEnvironment, originalTransactionIDs ids: [String], transactionIDs: [String] = [],
        in session: PostgresSession
    ) throws -> StoredFacts {
        var facts = StoredFacts()
        let query: PostgresQuery =
            transactionIDs.isEmpty
            ? """
            SELECT \(unescaped: TransactionFact.columns) FROM transactions
            WHERE environment = \(environment.rawValue) AND original_transaction_id = ANY(\(ids)::text[])
            """
            : """
            SELECT \(unescaped: TransactionFact.columns) FROM transactions
            WHERE environment = \(environment.rawValue)
              AND (original_transaction_id = ANY(\(ids)::text[]) OR transaction_id = ANY(\(transactionIDs)::text[]))
            """
        for row in try session.query(query) {
            facts.add(try TransactionFact(row: row))
        }
        for row in try session.query(
            PostgresQuery(
                """
                SELECT \(unescaped: RenewalFact.columns) FROM renewal_info
                WHERE environment = \(environment.rawValue) AND original_transaction_id = ANY(\(ids)::text[])
                """))
        {
            let renewal = try RenewalFact(row: row)
            facts.renewals[renewal.originalTransactionID] = renewal
        }
        return facts
    }

    /// The stored transaction `id`, if any.
    func transaction(_ id: String) -> TransactionFact? {
        originalOfTransaction[id].flatMap { original in transactions[original]?.first { $0.transactionID == id } }
    }

    /// Records that `fact` was written over `before` (nil: a new row), as the table now holds
    /// it (its dates at the column's precision, as a query would read them).
    mutating func wrote(_ fact: TransactionFact, over before: TransactionFact?) {
        if let before {
            transactions[before.originalTransactionID]?.removeAll { $0.transactionID == before.transactionID }
            originalOfTransaction[before.transactionID] = nil
        }
        add(fact.asStored)
    }

    /// Records that `renewal` was written over the renewal info of its original transaction.
    mutating func wrote(_ renewal: RenewalFact) {
        renewals[renewal.originalTransactionID] = renewal.asStored
    }

    private mutating func add(_ fact: TransactionFact) {
        transactions[fact.originalTransactionID, default: []].append(fact)
        originalOfTransaction[fact.transactionID] = fact.originalTransactionID
    }
}
