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
            let inserted = try session.queryFirst(PostgresQuery("""
                INSERT INTO notifications
                    (source, dedupe_key, notification_type, notification_subtype, environment, bundle_id, original_transaction_id,
                     app_user_id, body)
                VALUES (\(entry.source.rawValue), \(entry.dedupeKey), \(entry.notificationType), \(entry.notificationSubtype),
                        \(entry.environment.rawValue),
                        \(entry.bundleID), \(entry.originalTransactionID), \(entry.appUserID), \(entry.body)::jsonb)
                ON CONFLICT (dedupe_key) DO NOTHING
                RETURNING id
                """).prepared())
            if let inserted { return .accepted(id: try inserted.decode("id")) }
            let existing = try session.queryFirst(PostgresQuery("SELECT id FROM notifications WHERE dedupe_key = \(entry.dedupeKey)").prepared())
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
            let rows = try session.query(PostgresQuery(
                "SELECT id, dedupe_key FROM notifications WHERE dedupe_key = ANY(\(conflicting)::text[])").prepared())
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
        return PostgresQuery("""
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
            """).prepared()
    }

    /// Claims up to `limit` due entries for one attempt each. A claim pushes the entry's
    /// `next_attempt_at` out by `lease`: if this process dies mid-attempt, the entry becomes
    /// due again after the lease and another worker takes it. `SKIP LOCKED` lets any number
    /// of workers and processes claim side by side without waiting on each other.
    ///
    /// A due entry already claimed `maxUnfinishedClaims` times without any outcome recorded
    /// (each attempt stopped the process) is not claimed again: it ends `dead` when it comes
    /// up, so a poison input cannot crash-loop the service, and the claim takes the next due
    /// entries in its place.
    public func claimDue(limit: Int, lease: Duration, maxUnfinishedClaims: Int = 5) async throws -> [ClaimedNotification] {
        let leaseSeconds = Double(lease.components.seconds) + Double(lease.components.attoseconds) / 1e18
        var claimed: [ClaimedNotification] = []
        // Each round reads only the `limit - claimed` entries due first; poison among them is
        // buried, and a round that buried none is the last.
        while claimed.count < limit {
            let round = try await claimRound(limit: limit - claimed.count, leaseSeconds: leaseSeconds, maxUnfinishedClaims: maxUnfinishedClaims)
            claimed += round.claimed
            guard round.buried > 0 else { break }
        }
        return claimed
    }

    /// One claim statement over the first `limit` due entries (the due index read in its
    /// order, never the whole backlog): the poisoned ones end `dead` with an `abandoned`
    /// attempt, the others are claimed.
    private func claimRound(limit: Int, leaseSeconds: Double, maxUnfinishedClaims: Int) async throws -> (claimed: [ClaimedNotification], buried: Int) {
        let rows = try await client.query(PostgresQuery("""
            WITH due AS (
                SELECT id, unfinished_claims >= \(maxUnfinishedClaims) AS poisoned FROM notifications
                WHERE state IN ('pending', 'retrying') AND next_attempt_at <= now()
                ORDER BY next_attempt_at, id
                LIMIT \(limit)
                FOR UPDATE SKIP LOCKED
            ), buried AS (
                UPDATE notifications AS n
                SET state = 'dead', unfinished_claims = 0, updated_at = now(),
                    last_error = 'stopped the worker ' || n.unfinished_claims || ' times: every attempt ended without an outcome '
                        || '(the process died); fix the cause, then `subscriptionctl notifications replay`, or discard it'
                FROM due WHERE n.id = due.id AND due.poisoned
                RETURNING n.id, n.attempts, n.claimed_at, n.last_error
            ), abandoned AS (
                INSERT INTO notification_attempts (notification_id, attempt, started_at, outcome, error)
                SELECT id, attempts, coalesce(claimed_at, now()), 'abandoned', last_error FROM buried
                ON CONFLICT (notification_id, attempt) DO UPDATE SET outcome = EXCLUDED.outcome, error = EXCLUDED.error,
                    finished_at = now()
            ), claimed AS (
                UPDATE notifications AS n
                SET attempts = n.attempts + 1, unfinished_claims = n.unfinished_claims + 1, claimed_at = now(),
                    next_attempt_at = now() + make_interval(secs => \(leaseSeconds)), updated_at = now()
                FROM due WHERE n.id = due.id AND NOT due.poisoned
                RETURNING n.id, n.source, n.body::text AS body, n.bundle_id, n.environment, n.app_user_id,
                          n.attempts, n.claimed_at, n.received_at, n.receipt_removed_at
            )
            SELECT claimed.*, NULL::bigint AS buried FROM claimed
            UNION ALL
            SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, count(*) FROM buried
            """).prepared())
        var claimed: [ClaimedNotification] = []
        var buried = 0
        for row in rows {
            if let count = try row.decode("buried", as: Int64?.self) {
                buried = Int(count)
            } else {
                claimed.append(try ClaimedNotification(row: row))
            }
        }
        return (claimed, buried)
    }

    /// Records a successful attempt (inside the transaction that applied the facts).
    ///
    /// Fenced: only the claim that made this attempt may finish it. When a newer claim (after
    /// this one's lease ran out) or an operator took the entry over, this throws
    /// `StaleClaimError` and the caller's transaction rolls back.
    public static func markProcessed(_ notification: ClaimedNotification, note: String? = nil, in session: PostgresSession) throws {
        let recorded = try session.execute(PostgresQuery("""
            WITH finished AS (
                UPDATE notifications SET state = 'processed', processed_at = now(), last_error = NULL, unfinished_claims = 0,
                    updated_at = now()
                WHERE \(unescaped: fence) AND id = \(notification.id) AND attempts = \(notification.attempt)
                RETURNING id
            )
            INSERT INTO notification_attempts (notification_id, attempt, started_at, outcome, error)
            SELECT id, \(notification.attempt)::integer, \(notification.claimedAt)::timestamptz, 'processed', \(note)::text FROM finished
            ON CONFLICT (notification_id, attempt) DO UPDATE SET outcome = EXCLUDED.outcome, error = EXCLUDED.error,
                finished_at = now()
            """).prepared())
        guard recorded == 1 else { throw StaleClaimError(notificationID: notification.id, attempt: notification.attempt) }
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
    private func finish(_ notification: ClaimedNotification, state: String, nextAttemptAt: Date?, outcome: String, reason: String) async throws -> Bool {
        let recorded = try await client.execute(PostgresQuery("""
            WITH finished AS (
                UPDATE notifications SET state = \(state), next_attempt_at = coalesce(\(nextAttemptAt), next_attempt_at),
                    last_error = \(reason), unfinished_claims = 0, updated_at = now()
                WHERE \(unescaped: Self.fence) AND id = \(notification.id) AND attempts = \(notification.attempt)
                RETURNING id
            )
            INSERT INTO notification_attempts (notification_id, attempt, started_at, outcome, error)
            SELECT id, \(notification.attempt)::integer, \(notification.claimedAt)::timestamptz, \(outcome)::text, \(reason)::text FROM finished
            ON CONFLICT (notification_id, attempt) DO UPDATE SET outcome = EXCLUDED.outcome, error = EXCLUDED.error,
                finished_at = now()
            """).prepared())
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
