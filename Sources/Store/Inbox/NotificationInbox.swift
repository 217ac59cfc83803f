import AppStore
import Foundation
import Postgres

/// The `notifications` table: durable intake, worker claims, outcomes.
public struct NotificationInbox: Sendable {
    private let client: PostgresClient

    /// Creates the repository.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// Stores an entry unless one with the same dedupe key exists; returns once committed.
    public func insert(_ entry: InboxEntry) async throws -> InboxInsertResult {
        try await client.withConnection { session in
            let inserted = try session.queryFirst("""
                INSERT INTO notifications
                    (source, dedupe_key, notification_type, environment, bundle_id, original_transaction_id, app_user_id, body)
                VALUES (\(entry.source.rawValue), \(entry.dedupeKey), \(entry.notificationType), \(entry.environment.rawValue),
                        \(entry.bundleID), \(entry.originalTransactionID), \(entry.appUserID), \(entry.body)::jsonb)
                ON CONFLICT (dedupe_key) DO NOTHING
                RETURNING id
                """)
            if let inserted { return .accepted(id: try inserted.decode("id")) }
            let existing = try session.queryFirst("SELECT id FROM notifications WHERE dedupe_key = \(entry.dedupeKey)")
            guard let existing else {
                // Deleted between our insert and select: vanishingly rare; the caller may retry.
                throw StoreError("notification vanished while being stored")
            }
            return .duplicate(id: try existing.decode("id"))
        }
    }

    /// Claims up to `limit` due entries for one attempt each. A claim pushes the entry's
    /// `next_attempt_at` out by `lease`: if this process dies mid-attempt, the entry becomes
    /// due again after the lease and another worker takes it. `SKIP LOCKED` lets any number
    /// of workers and processes claim side by side without waiting on each other.
    public func claimDue(limit: Int, lease: Duration) async throws -> [ClaimedNotification] {
        let leaseSeconds = Double(lease.components.seconds) + Double(lease.components.attoseconds) / 1e18
        return try await client.withConnection { session in
            try session.query("""
                UPDATE notifications AS n
                SET attempts = n.attempts + 1, claimed_at = now(),
                    next_attempt_at = now() + make_interval(secs => \(leaseSeconds)), updated_at = now()
                FROM (
                    SELECT id FROM notifications
                    WHERE state IN ('pending', 'retrying') AND next_attempt_at <= now()
                    ORDER BY next_attempt_at, id
                    LIMIT \(limit)
                    FOR UPDATE SKIP LOCKED
                ) AS due
                WHERE n.id = due.id
                RETURNING n.id, n.source, n.body::text AS body, n.bundle_id, n.environment, n.app_user_id,
                          n.attempts, n.claimed_at, n.received_at
                """).map(ClaimedNotification.init(row:))
        }
    }

    /// Records a successful attempt (inside the transaction that applied the facts).
    public static func markProcessed(_ notification: ClaimedNotification, in session: PostgresSession) throws {
        try session.execute("""
            UPDATE notifications SET state = 'processed', processed_at = now(), last_error = NULL, updated_at = now()
            WHERE id = \(notification.id)
            """)
        try recordAttempt(notification, outcome: "processed", error: nil, in: session)
    }

    /// Schedules another attempt at `nextAttemptAt`, keeping the reason.
    public func scheduleRetry(_ notification: ClaimedNotification, at nextAttemptAt: Date, reason: String) async throws {
        try await client.withTransaction { session in
            try session.execute("""
                UPDATE notifications SET state = 'retrying', next_attempt_at = \(nextAttemptAt), last_error = \(reason), updated_at = now()
                WHERE id = \(notification.id) AND state <> 'processed'
                """)
            try Self.recordAttempt(notification, outcome: "retry", error: reason, in: session)
        }
    }

    /// Gives up on an entry for a permanent reason; `replay` brings it back.
    public func markDead(_ notification: ClaimedNotification, reason: String) async throws {
        try await client.withTransaction { session in
            try session.execute("""
                UPDATE notifications SET state = 'dead', last_error = \(reason), updated_at = now()
                WHERE id = \(notification.id) AND state <> 'processed'
                """)
            try Self.recordAttempt(notification, outcome: "dead", error: reason, in: session)
        }
    }

    private static func recordAttempt(_ notification: ClaimedNotification, outcome: String, error failure: String?, in session: PostgresSession) throws {
        try session.execute("""
            INSERT INTO notification_attempts (notification_id, attempt, started_at, outcome, error)
            VALUES (\(notification.id), \(notification.attempt), \(notification.claimedAt), \(outcome), \(failure))
            ON CONFLICT (notification_id, attempt) DO UPDATE SET outcome = EXCLUDED.outcome, error = EXCLUDED.error,
                finished_at = now()
            """)
    }
}

extension ClaimedNotification {
    init(row: PostgresRow) throws {
        let sourceText: String = try row.decode("source")
        let environmentText: String = try row.decode("environment")
        guard let source = InboxSource(rawValue: sourceText), let environment = AppStoreEnvironment(rawValue: environmentText) else {
            throw StoreError("unknown source or environment in notifications row")
        }
        self.init(
            id: try row.decode("id"), source: source, body: try row.decode("body"), bundleID: try row.decode("bundle_id"),
            environment: environment, appUserID: try row.decode("app_user_id"), attempt: try row.decode("attempts"),
            claimedAt: try row.decode("claimed_at"), receivedAt: try row.decode("received_at")
        )
    }
}
