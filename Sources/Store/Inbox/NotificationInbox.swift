import AppStore
import Foundation
import Postgres

/// The `notifications` table: durable intake, worker claims, outcomes.
public struct NotificationInbox: Sendable {
    let client: PostgresClient

    /// Creates the repository.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// Stores an entry unless one with the same dedupe key exists; returns once committed.
    public func insert(_ entry: InboxEntry) async throws -> InboxInsertResult {
        try await client.withConnection { session in
            let inserted = try session.queryFirst(
                PostgresQuery(
                    """
                    INSERT INTO notifications
                        (source, dedupe_key, notification_type, notification_subtype, environment, bundle_id, original_transaction_id,
                         app_user_id, body)
                    VALUES (\(entry.source.rawValue), \(entry.dedupeKey), \(entry.notificationType), \(entry.notificationSubtype),
                            \(entry.environment.rawValue),
                            \(entry.bundleID), \(entry.originalTransactionID), \(entry.appUserID), \(entry.body)::jsonb)
                    ON CONFLICT (dedupe_key) DO NOTHING
                    RETURNING id
                    """
                ).prepared())
            if let inserted { return .accepted(id: try inserted.decode("id")) }
            let existing = try session.queryFirst(
                PostgresQuery("SELECT id FROM notifications WHERE dedupe_key = \(entry.dedupeKey)").prepared())
            guard let existing else {
                // Deleted between our insert and select: vanishingly rare; the caller may retry.
                throw StoreError("notification vanished while being stored")
            }
            return .duplicate(id: try existing.decode("id"))
        }
    }

    /// Stores several entries with one statement, which commits them all or none, and
    /// answers for each entry in order, like `insert` would have.
    ///
    /// Entries whose dedupe key is already stored are `duplicate` of the stored id; within
    /// the batch, the first entry with a key is stored (`accepted`) and every later one is
    /// its `duplicate`. Returns only after the statement committed. A statement that fails
    /// stores nothing and throws: a data error in one entry fails the whole batch, so the
    /// caller decides whether to store the entries one by one.
    public func insertBatch(_ entries: [InboxEntry]) async throws -> [InboxInsertResult] {
        guard !entries.isEmpty else { return [] }
        return try await client.withConnection { session in try Self.insertBatch(entries, in: session) }
    }

    /// `insertBatch` inside the caller's session (and transaction, if one is open), for
    /// writes that must commit together with the entries.
    public static func insertBatch(_ entries: [InboxEntry], in session: PostgresSession) throws -> [InboxInsertResult] {
        guard !entries.isEmpty else { return [] }
        var firstIndexByKey: [String: Int] = [:]
        var unique: [InboxEntry] = []
        for (index, entry) in entries.enumerated() where firstIndexByKey[entry.dedupeKey] == nil {
            firstIndexByKey[entry.dedupeKey] = index
            unique.append(entry)
        }
        // Inserted in key order: two batches racing on the same keys then wait on each
        // other in one order and never deadlock.
        let batch = unique.sorted { $0.dedupeKey < $1.dedupeKey }
        var inserted: [String: Int64] = [:]
        for row in try session.query(batchInsert(batch)) { inserted[try row.decode("dedupe_key")] = try row.decode("id") }
        let conflicting = batch.map(\.dedupeKey).filter { inserted[$0] == nil }
        var existing: [String: Int64] = [:]
        if !conflicting.isEmpty {
            let rows = try session.query(
                PostgresQuery(
                    "SELECT id, dedupe_key FROM notifications WHERE dedupe_key = ANY(\(conflicting)::text[])"
                ).prepared())
            for row in rows { existing[try row.decode("dedupe_key")] = try row.decode("id") }
        }
        return try entries.enumerated().map { index, entry in
            if let id = inserted[entry.dedupeKey] {
                return firstIndexByKey[entry.dedupeKey] == index ? .accepted(id: id) : .duplicate(id: id)
            }
            guard let id = existing[entry.dedupeKey] else {
                throw StoreError("notification vanished while being stored")
            }
            return .duplicate(id: id)
        }
    }

    /// One `INSERT … SELECT FROM unnest(…)` over column arrays: the same statement text for
    /// every batch size, so it is prepared once per connection.
    private static func batchInsert(_ entries: [InboxEntry]) -> PostgresQuery {
        func column(_ value: (InboxEntry) -> String?) -> PostgresTextArray { PostgresTextArray(entries.map(value)) }
        return PostgresQuery(
            """
            INSERT INTO notifications
                (source, dedupe_key, notification_type, notification_subtype, environment, bundle_id, original_transaction_id,
                 app_user_id, body)
            SELECT source, dedupe_key, notification_type, notification_subtype, environment, bundle_id, original_transaction_id,
                   app_user_id, body::jsonb
            FROM unnest(\(column { $0.source.rawValue })::text[], \(column { $0.dedupeKey })::text[],
                        \(column { $0.notificationType })::text[], \(column { $0.notificationSubtype })::text[],
                        \(column { $0.environment.rawValue })::text[], \(column { $0.bundleID })::text[],
                        \(column { $0.originalTransactionID })::text[], \(column { $0.appUserID })::text[],
                        \(column { $0.body })::text[])
                AS batch (source, dedupe_key, notification_type, notification_subtype, environment, bundle_id,
                          original_transaction_id, app_user_id, body)
            ON CONFLICT (dedupe_key) DO NOTHING
            RETURNING id, dedupe_key
            """
        ).prepared()
    }

    /// Records a successful attempt (inside the transaction that applied the facts).
    ///
    /// Fenced: only the claim that made this attempt may finish it. When a newer claim (after
    /// this one's lease ran out) or an operator took the entry over, this throws
    /// `StaleClaimError` and the caller's transaction rolls back.
    public static func markProcessed(_ notification: ClaimedNotification, note: String? = nil, in session: PostgresSession) throws {
        let recorded = try session.execute(
            PostgresQuery(
                """
                WITH finished AS (
                    UPDATE notifications SET state = 'processed', processed_at = now(), last_error = NULL, unfinished_claims = 0,
                        isolated_claims = 0, updated_at = now()
                    WHERE \(unescaped: fence) AND id = \(notification.id) AND attempts = \(notification.attempt)
                    RETURNING id
                )
                INSERT INTO notification_attempts (notification_id, attempt, started_at, outcome, error)
                SELECT id, \(notification.attempt)::integer, \(notification.claimedAt)::timestamptz, 'processed', \(note)::text FROM finished
                ON CONFLICT (notification_id, attempt) DO UPDATE SET outcome = EXCLUDED.outcome, error = EXCLUDED.error,
                    finished_at = now()
                """
            ).prepared())
        guard recorded == 1 else { throw StaleClaimError(notificationID: notification.id, attempt: notification.attempt) }
    }

    /// Notifications not yet processed (pending or retrying) and when the oldest arrived: the
    /// worker's backlog (metrics).
    public func backlog() async throws -> (unfinished: Int, oldestReceivedAt: Date?) {
        try await client.countAndOldest(
            PostgresQuery(
                """
                SELECT count(*) AS n, min(received_at) AS oldest FROM notifications WHERE state IN ('pending', 'retrying')
                """))
    }

    /// Schedules another attempt at `nextAttemptAt`, keeping the reason. Returns false (and
    /// writes nothing) when the claim is stale.
    @discardableResult
    public func scheduleRetry(_ notification: ClaimedNotification, at nextAttemptAt: Date, reason: String) async throws -> Bool {
        try await finish(notification, state: "retrying", nextAttemptAt: nextAttemptAt, outcome: "retry", reason: reason)
    }

    /// Gives up on an entry for a permanent reason; `replay` brings it back. Returns false
    /// (and writes nothing) when the claim is stale.
    @discardableResult
    public func markDead(_ notification: ClaimedNotification, reason: String) async throws -> Bool {
        try await finish(notification, state: "dead", nextAttemptAt: nil, outcome: "dead", reason: reason)
    }

    /// Only entries still waiting for an outcome can be finished by a claim.
    private static let fence: StaticString = "state IN ('pending', 'retrying')"

    /// The entry's new state and its attempt's outcome, in one statement (so atomic without a
    /// transaction of its own); nothing when the claim is stale.
    private func finish(
        _ notification: ClaimedNotification, state: String, nextAttemptAt: Date?, outcome: String, reason: String
    ) async throws -> Bool {
        let recorded = try await client.execute(
            PostgresQuery(
                """
                WITH finished AS (
                    UPDATE notifications SET state = \(state), next_attempt_at = coalesce(\(nextAttemptAt), next_attempt_at),
                        last_error = \(reason), unfinished_claims = 0, isolated_claims = 0, updated_at = now()
                    WHERE \(unescaped: Self.fence) AND id = \(notification.id) AND attempts = \(notification.attempt)
                    RETURNING id
                )
                INSERT INTO notification_attempts (notification_id, attempt, started_at, outcome, error)
                SELECT id, \(notification.attempt)::integer, \(notification.claimedAt)::timestamptz, \(outcome)::text, \(reason)::text FROM finished
                ON CONFLICT (notification_id, attempt) DO UPDATE SET outcome = EXCLUDED.outcome, error = EXCLUDED.error,
                    finished_at = now()
                """
            ).prepared())
        return recorded == 1
    }
}

/// A claim that lost its entry: its lease ran out and another claim (or an operator) took
/// the entry over, so this attempt's outcome must not be written.
public struct StaleClaimError: Error, Sendable, CustomStringConvertible {
    /// The entry.
    public let notificationID: Int64
    /// The stale attempt's number.
    public let attempt: Int

    public var description: String { "attempt \(attempt) of notification \(notificationID) was superseded by a newer claim" }
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
            claimedAt: try row.decode("claimed_at"), receivedAt: try row.decode("received_at"),
            receiptRemovedAt: try row.decode("receipt_removed_at")
        )
    }
}
