import AppStore
import Foundation
import Postgres
import Subscriptions

/// A subscription whose status changed while facts were applied.
public struct StatusChange: Sendable, Equatable {
    /// The subscription.
    public let originalTransactionID: String
    /// Its environment.
    public let environment: AppStoreEnvironment
    /// The status before (nil for a new subscription).
    public let oldStatus: SubscriptionStatus?
    /// The status now.
    public let newStatus: SubscriptionStatus
}

/// Writes facts from Apple into `transactions`, `renewal_info`, `subscriptions`,
/// `subscribers`, `status_events` and the `webhook_events` outbox, so that the stored state depends only on the facts,
/// never on the order or number of times they arrive.
public enum FactStore {
    /// Takes the transaction-scoped lock of every subscription and one-time purchase `batches`
    /// touch, in one global order (environment, then original transaction id). A one-time
    /// purchase needs it as much as a subscription: two notifications of a purchase not stored
    /// yet (its purchase and its refund) would otherwise both find no row, and the second
    /// upsert would overwrite the first instead of merging with it.
    ///
    /// A transaction that applies several batches calls this first with all of them and then
    /// ``applyLocked(_:receiptObservedAt:notificationID:appUserID:linkPolicy:webhookEvents:now:in:)``
    /// for each: batch by batch two transactions could take A then B and B then A, and deadlock.
    ///
    /// One statement takes them all, in the array's order (a function scan of `unnest` yields
    /// its elements in order, and each row's lock is taken as the row is produced).
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

    /// Applies one batch of facts inside the caller's transaction.
    ///
    /// Subscriptions are locked per original transaction (advisory locks, taken in sorted
    /// order so concurrent workers cannot deadlock); transactions are merged with what is
    /// stored (facts never regress); renewal info is replaced only by newer information;
    /// each touched subscription is recomputed from all its stored facts at `now`. Each
    /// purchase's links then follow `PurchaseOwnership` under `linkPolicy` (the app's), with
    /// `appUserID` as the claimant; a claim the rule refuses throws its
    /// `PurchaseOwnership.Refusal`, and the caller's transaction stores nothing of the batch.
    /// Only the event types in `webhookEvents` (the app's selection) are written; when it has
    /// `entitlement_changed`, the users of every subscription or purchase that changed (and
    /// those who lost one) are marked for an entitlement review (``EntitlementReviews``).
    @discardableResult
    public static func apply(
        _ facts: ReceiptFacts,
        receiptObservedAt: Date,
        notificationID: Int64?,
        appUserID: String? = nil,
        linkPolicy: LinkPolicy = .transfer,
        webhookEvents: Set<LifecycleEvent.Kind> = Set(LifecycleEvent.Kind.allCases),
        now: Date = Date(),
        in session: PostgresSession
    ) throws -> [StatusChange] {
        try lockSubscriptions(of: [facts], in: session)
        return try applyLocked(
            facts, receiptObservedAt: receiptObservedAt, notificationID: notificationID, appUserID: appUserID, linkPolicy: linkPolicy,
            webhookEvents: webhookEvents, now: now, in: session)
    }

    /// ``apply(_:receiptObservedAt:notificationID:appUserID:linkPolicy:webhookEvents:now:in:)``
    /// for a caller whose transaction already holds the locks of `facts`' subscriptions
    /// (``lockSubscriptions(of:in:)`` with these facts among its batches).
    @discardableResult
    public static func applyLocked(
        _ facts: ReceiptFacts,
        receiptObservedAt: Date,
        notificationID: Int64?,
        appUserID: String?,
        linkPolicy: LinkPolicy,
        webhookEvents: Set<LifecycleEvent.Kind>,
        now: Date = Date(),
        in session: PostgresSession
    ) throws -> [StatusChange] {
        let environment = facts.environment.rawValue
        let subscriptionIDs = facts.subscriptionIDs.sorted()
        // Statements keyed by a whole primary key are prepared once per connection. Lookups by
        // a list of keys (`environment = $1 AND … = ANY($2)`) are not: a connection's cached
        // generic plan is made from the statistics of its moment, and one made while the tables
        // were new reads the whole environment (`environment` as its only index condition)
        // until autovacuum analyzes the table, while a backlog grows it by thousands of rows a
        // minute. Sent unprepared, they are planned for their keys on every call
        // (`FactStorePlanningTests`); everything else keeps its cached plan.
        //
        // Every stored fact the batch speaks about is read once: the merge and the renewals
        // compare with it, and each subscription is recomputed from it as written below. The
        // rows need no lock of their own: every writer of facts holds the advisory locks
        // taken above.
        var stored = try StoredFacts.load(
            environment: facts.environment, originalTransactionIDs: facts.originalTransactionIDs,
            transactionIDs: facts.transactions.map(\.transactionID), in: session)
        let merged = try mergeTransactions(facts.transactions, environment: environment, stored: &stored, in: session)
        for id in subscriptionIDs {
            if let renewal = facts.renewal(of: id) { try replaceRenewalIfNewer(renewal, stored: &stored, in: session) }
        }
        let links = PurchaseLinks(facts: facts, policy: linkPolicy, claimant: appUserID)
        var changes: [StatusChange] = []
        // Subjects whose change may move their users' entitlements, and users who lost one.
        var moved: [String] = []
        var unlinked: [String] = []
        for id in subscriptionIDs {
            let receipt = facts.latestReceipt.map { (receipt: $0, observedAt: receiptObservedAt) }
            let outcome = try SubscriptionRecompute.run(
                environment: facts.environment, originalTransactionID: id, stored: stored, receipt: receipt,
                notificationID: notificationID, now: now, in: session
            )
            if let change = outcome?.status { changes.append(change) }
            let linked = try links.settle(originalTransactionID: id, in: session)
            if !(outcome?.events ?? []).isEmpty || !linked.link.isEmpty || !linked.unlink.isEmpty { moved.append(id) }
            unlinked += linked.unlink
            try WebhookOutbox.record(
                events: outcome?.events ?? [], previousStatus: outcome?.status?.oldStatus, linkedUsers: linked.link,
                unlinkedUsers: linked.unlink, kinds: webhookEvents, environment: facts.environment, originalTransactionID: id,
                now: now, in: session)
        }
        // One-time purchases belong to users the same way, and have no subscription row; their
        // events say the purchase as it is now.
        for id in facts.oneTimePurchaseIDs {
            let linked = try links.settle(originalTransactionID: id, in: session)
            let events = merged.filter { $0.after.originalTransactionID == id && $0.after.isOneTimePurchase }
                .flatMap { LifecycleRule.events(before: $0.before, after: $0.after) }
            if !events.isEmpty || !linked.link.isEmpty || !linked.unlink.isEmpty { moved.append(id) }
            unlinked += linked.unlink
            try WebhookOutbox.recordPurchase(
                events: events, linkedUsers: linked.link, unlinkedUsers: linked.unlink, kinds: webhookEvents,
                environment: facts.environment, originalTransactionID: id, in: session)
        }
        if webhookEvents.contains(.entitlementChanged) {
            try EntitlementReviews.markDue(
                linkedTo: facts.environment, originalTransactionIDs: moved, alsoUsers: unlinked, now: now, in: session)
        }
        if let appUserID, let version = facts.originalApplicationVersion {
            try OriginalVersionStore.record(
                OriginalApplicationVersion(bundleID: facts.bundleID, environment: facts.environment, version: version),
                appUserID: appUserID, proof: .receipt, in: session)
        }
        return changes
    }

    /// Merges `incoming` with `stored` and writes what changed, recording it in `stored`;
    /// returns each transaction that changed, as it was stored before (nil: new) and as it is now.
    @discardableResult
    private static func mergeTransactions(
        _ incoming: [TransactionFact], environment: String, stored: inout StoredFacts, in session: PostgresSession
    ) throws -> [(before: TransactionFact?, after: TransactionFact)] {
        let coalesced = TransactionFact.coalesced(incoming)
        guard !coalesced.isEmpty else { return [] }
        var changed: [(before: TransactionFact?, after: TransactionFact)] = []
        // A verifyReceipt answer restates every transaction of the receipt with its own
        // request date, so most stored rows differ from the merge in `stated_at` alone: those
        // are written with one statement per statement time instead of an upsert each.
        var restated: [Date: [String]] = [:]
        for fact in coalesced {
            let before = stored.transaction(fact.transactionID)
            let merged = before.map { $0.merged(with: fact) } ?? fact
            guard merged != before else { continue }
            changed.append((before, merged))
            stored.wrote(merged, over: before)
            if let before, let statedAt = merged.statedAt, merged.isRestatement(of: before) {
                restated[statedAt, default: []].append(merged.transactionID)
            } else {
                try merged.upsert(in: session)
            }
        }
        for (statedAt, ids) in restated.sorted(by: { $0.key < $1.key }) {
            let update = PostgresQuery(
                """
                UPDATE transactions SET stated_at = \(statedAt), updated_at = now()
                WHERE environment = \(environment) AND transaction_id \(equalsOneOf: ids.sorted())
                """)
            // Several keys: not prepared, planned for them (see `apply`).
            try session.execute(ids.count == 1 ? update.prepared() : update)
        }
        return changed
    }

    private static func replaceRenewalIfNewer(_ renewal: RenewalFact, stored: inout StoredFacts, in session: PostgresSession) throws {
        if let current = stored.renewals[renewal.originalTransactionID], !renewal.isNewer(than: current) { return }
        try renewal.upsert(in: session)
        stored.wrote(renewal)
    }
}
