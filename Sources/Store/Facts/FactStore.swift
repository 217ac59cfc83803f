import AppStore
import Foundation
import Postgres
import Subscriptions

/// Reads what a batch of facts from Apple speaks about and writes the ``ApplyPlan``
/// ``FactApplication`` makes of it, into `transactions`, `renewal_info`, `subscriptions`,
/// `subscribers`, `status_events`, the `webhook_events` outbox and the entitlement reviews.
/// Nothing is decided here: the caller (`FactApplier`) locks, loads, plans and writes, in
/// one transaction.
public enum FactStore {
    /// Takes the transaction-scoped lock of every subscription and one-time purchase `batches`
    /// touch, in one global order (environment, then original transaction id). A one-time
    /// purchase needs it as much as a subscription: two notifications of a purchase not stored
    /// yet (its purchase and its refund) would otherwise both find no row, and the second
    /// upsert would overwrite the first instead of merging with it.
    ///
    /// A transaction that applies several batches calls this first with all of them, then
    /// loads and writes each: batch by batch two transactions could take A then B and B then
    /// A, and deadlock. One statement takes them all, in the array's order (a function scan of
    /// `unnest` yields its elements in order, and each row's lock is taken as it is produced).
    public static func lockSubscriptions(of batches: [ReceiptFacts], in session: PostgresSession) throws {
        let keys = lockKeys(of: batches)
        guard !keys.isEmpty else { return }
        try session.execute(
            PostgresQuery("SELECT pg_advisory_xact_lock(hashtextextended(key, 0)) FROM unnest(\(keys)::text[]) AS key").prepared())
    }

    /// The lock keys of every original transaction `batches` touch, each once, in the one global order.
    static func lockKeys(of batches: [ReceiptFacts]) -> [String] {
        Set(batches.flatMap { batch in batch.originalTransactionIDs.map { lockKey(environment: batch.environment.rawValue, id: $0) } })
            .sorted()
    }

    /// The advisory lock key of one subscription or purchase (hashed with `hashtextextended(key, 0)`).
    static func lockKey(environment: String, id: String) -> String {
        environment + ":" + id
    }

    /// Everything stored that applying `facts` for `claimant` compares with, read inside the
    /// caller's transaction, which must hold the locks of the facts' purchases
    /// (``lockSubscriptions(of:in:)``): their transactions and renewal info, their
    /// subscription rows, and, for purchases whose owners the facts may change, their links
    /// and what their app account tokens say.
    ///
    /// Statements keyed by a whole primary key are prepared once per connection. Lookups by a
    /// list of keys are not: a connection's cached generic plan is made from the statistics of
    /// its moment, and one made while the tables were new reads the whole environment until
    /// autovacuum analyzes the table, while a backlog grows it by thousands of rows a minute.
    /// Sent unprepared, they are planned for their keys on every call (`FactStorePlanningTests`).
    /// The rows need no lock of their own: every writer of facts holds the advisory locks.
    public static func load(for facts: ReceiptFacts, claimant: String?, in session: PostgresSession) throws -> StoredPurchases {
        var stored = try StoredPurchases.load(
            environment: facts.environment, originalTransactionIDs: facts.originalTransactionIDs,
            transactionIDs: facts.transactions.map(\.transactionID), in: session)
        try stored.loadSubscriptions(environment: facts.environment, ids: facts.subscriptionIDs.sorted(), in: session)
        let settled = (facts.subscriptionIDs + facts.oneTimePurchaseIDs).filter {
            FactApplication.mayChangeOwners(of: $0, facts: facts, claimant: claimant)
        }
        try stored.loadOwners(environment: facts.environment, ids: settled, incoming: facts.transactions, in: session)
        return stored
    }

    /// Writes `plan` inside the caller's transaction (the one that loaded what it was made
    /// from); `notificationID` names the notification on its status events. The caller queues
    /// the plan's ``reportedChains(of:)`` for the reports before it commits, once for all the
    /// plans it writes (``ReportRollupStore/queue(environment:ids:in:)``).
    public static func write(_ plan: ApplyPlan, notificationID: Int64?, now: Date, in session: PostgresSession) throws {
        let environment = plan.environment
        for fact in plan.transactions {
            try fact.upsert(in: session)
        }
        for restatement in plan.restatements {
            let update = PostgresQuery(
                """
                UPDATE transactions SET stated_at = \(restatement.statedAt), updated_at = now()
                WHERE environment = \(environment.rawValue) AND transaction_id \(equalsOneOf: restatement.transactionIDs)
                """)
            // Several keys: not prepared, planned for them (see `load`).
            try session.execute(restatement.transactionIDs.count == 1 ? update.prepared() : update)
        }
        for renewal in plan.renewals {
            try renewal.upsert(in: session)
        }
        for subscription in plan.subscriptions {
            try SubscriptionRowWriter.write(
                subscription, environment: environment, receipt: plan.receipt, notificationID: notificationID, in: session)
        }
        for link in plan.links {
            try write(link, environment: environment, bundleID: plan.bundleID, in: session)
        }
        for entry in plan.outbox {
            switch entry.subject {
            case .subscription(let previousStatus):
                try WebhookOutbox.record(
                    entry.events, previousStatus: previousStatus, unlinkedUsers: entry.unlinkedUsers, environment: environment,
                    originalTransactionID: entry.originalTransactionID, now: now, in: session)
            case .purchase:
                try WebhookOutbox.recordPurchase(
                    entry.events, unlinkedUsers: entry.unlinkedUsers, environment: environment,
                    originalTransactionID: entry.originalTransactionID, in: session)
            }
        }
        if let review = plan.review {
            try EntitlementReviews.markDue(
                linkedTo: environment, originalTransactionIDs: review.originalTransactionIDs, alsoUsers: review.alsoUsers, now: now,
                in: session)
        }
        if let (appUserID, version) = plan.originalVersion {
            try OriginalVersionStore.record(version, appUserID: appUserID, proof: .receipt, in: session)
        }
        try TransactionFinishStore.queue(plan.finishes, environment: environment, bundleID: plan.bundleID, in: session)
    }

    /// The chains whose facts `plan` writes: the reports count them again.
    public static func reportedChains(of plan: ApplyPlan) -> Set<String> {
        Set(plan.transactions.map(\.originalTransactionID) + plan.renewals.map(\.originalTransactionID))
    }

    /// The `subscribers` rows of one purchase after its link change; a link made by a hint
    /// says so (`via_hint`), and a claimant's proof confirms its own link.
    private static func write(
        _ link: ApplyPlan.LinkWrite, environment: AppStoreEnvironment, bundleID: String, in session: PostgresSession
    ) throws {
        let id = link.originalTransactionID
        for user in link.change.link {
            try session.execute(
                PostgresQuery(
                    """
                    INSERT INTO subscribers (app_user_id, environment, original_transaction_id, bundle_id, via_hint)
                    VALUES (\(user), \(environment.rawValue), \(id), \(bundleID), \(link.change.linkedByHint.contains(user)))
                    ON CONFLICT DO NOTHING
                    """
                ).prepared())
        }
        for user in link.change.unlink {
            try session.execute(
                PostgresQuery(
                    """
                    DELETE FROM subscribers WHERE app_user_id = \(user) AND environment = \(environment.rawValue) AND original_transaction_id = \(id)
                    """
                ).prepared())
        }
        if let claimant = link.confirmed {
            try session.execute(
                PostgresQuery(
                    """
                    UPDATE subscribers SET via_hint = false
                    WHERE app_user_id = \(claimant) AND environment = \(environment.rawValue) AND original_transaction_id = \(id) AND via_hint
                    """
                ).prepared())
        }
    }
}
