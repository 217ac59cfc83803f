import AppStore
import Foundation
import Postgres
import Subscriptions

/// Time moves status too (DESIGN.md, "Lifecycle events"): a subscription whose period or
/// grace period ends with no new fact is recomputed once its `due_at` passes, its stored
/// status moves and its events are written, in one transaction.
///
/// Safe with several processes: due rows are claimed `FOR UPDATE SKIP LOCKED`, oldest first;
/// a subscription whose facts are being applied right now (its advisory lock is held) is
/// skipped, since that apply recomputes it anyway. A sweeper never waits on a subscription's
/// advisory lock, so it cannot deadlock with an apply (`FactApplier`), which takes that lock first.
public struct SubscriptionSweep: Sendable {
    private let client: PostgresClient
    private let webhookEvents: WebhookEventSelection

    /// A sweep writing the events `webhookEvents` selects for each app.
    public init(client: PostgresClient, webhookEvents: WebhookEventSelection = .everything) {
        self.client = client
        self.webhookEvents = webhookEvents
    }

    /// Recomputes up to `limit` subscriptions due at `now`, oldest due first; returns how
    /// many were claimed (moved or skipped because facts were being applied to them).
    @discardableResult
    public func sweep(limit: Int, now: Date = Date()) async throws -> Int {
        try await client.withTransaction { session in
            let due = try session.query(
                PostgresQuery(
                    """
                    SELECT environment, original_transaction_id, bundle_id FROM subscriptions
                    WHERE due_at <= \(now)
                    ORDER BY due_at
                    LIMIT \(limit)
                    FOR UPDATE SKIP LOCKED
                    """
                ).prepared()
            ).map {
                (
                    try AppStoreEnvironment(row: $0), try $0.decode("original_transaction_id", as: String.self),
                    try $0.decode("bundle_id", as: String.self)
                )
            }
            for (environment, id, bundleID) in due {
                let key = FactStore.lockKey(environment: environment.rawValue, id: id)
                let locked = try session.queryFirst(
                    PostgresQuery(
                        "SELECT pg_try_advisory_xact_lock(hashtextextended(\(key), 0)) AS locked"
                    ).prepared())?.decode("locked", as: Bool.self)
                guard locked == true else { continue }
                var stored = try StoredPurchases.load(environment: environment, originalTransactionIDs: [id], in: session)
                try stored.loadSubscriptions(environment: environment, ids: [id], in: session)
                guard let write = FactApplication.recompute(id, stored: stored, now: now) else {
                    // No facts make a subscription any more: nothing is due.
                    try session.execute(
                        PostgresQuery(
                            """
                            UPDATE subscriptions SET due_at = NULL WHERE environment = \(environment.rawValue) AND original_transaction_id = \(id)
                            """
                        ).prepared())
                    continue
                }
                try SubscriptionRowWriter.write(write, environment: environment, receipt: nil, notificationID: nil, in: session)
                try WebhookOutbox.record(
                    FactApplication.sweepEvents(write, kinds: webhookEvents.kinds(bundleID: bundleID)),
                    previousStatus: write.statusChanged ? write.previousStatus : nil, environment: environment, originalTransactionID: id,
                    now: now, in: session)
            }
            return due.count
        }
    }

    /// How far behind the sweep is: subscriptions due at `now`, and the oldest due time.
    public func backlog(now: Date = Date()) async throws -> (due: Int, oldestDueAt: Date?) {
        try await client.countAndOldest(
            PostgresQuery(
                """
                SELECT count(*) AS n, min(due_at) AS oldest FROM subscriptions WHERE due_at <= \(now)
                """))
    }
}
