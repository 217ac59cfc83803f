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
        guard let result = try await insertBatch([entry]).first else { throw StoreError("a stored entry got no answer") }
        return result
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
                    """
                    SELECT notification_id AS id, dedupe_key FROM notification_keys WHERE dedupe_key = ANY(\(conflicting)::text[])
                    """
                ).prepared())
            for row in rows { existing[try row.decode("dedupe_key")] = try row.decode("id") }
            // The stored entry may be a commit the synchronous standby never confirmed (its
            // wait was cancelled): visible here, gone after a failover. A commit of our own
            // that wrote WAL (a transactional logical-decoding message: one small record, no
            // row) waits until the standby holds everything before it, that entry included,
            // so `duplicate` is answered only for what is safe. A transaction id alone would
            // not: a commit that wrote nothing else neither flushes nor waits.
            _ = try session.query(PostgresQuery("SELECT pg_logical_emit_message(true, 'subscriptiond', 'duplicate') AS lsn").prepared())
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

    /// One statement over column arrays (the same text for every batch size, so it is prepared
    /// once per connection): each key new to `notification_keys` takes the next id there, and
    /// only those entries are stored, under it. The key's unique index is what makes a retry a
    /// duplicate: `notifications` is partitioned by month and cannot hold one across months.
    /// The certificate chains the bodies reference are stored in the same statement, each
    /// once (`certificate_chains` holds a handful of rows for all of Apple's traffic).
    private static func batchInsert(_ entries: [InboxEntry]) -> PostgresQuery {
        func column(_ value: (InboxEntry) -> String?) -> PostgresTextArray { PostgresTextArray(entries.map(value)) }
        var chains: [String: String] = [:]
        for chain in entries.flatMap(\.certificateChains) { chains[chain.id] = chain.text }
        let chainIDs = chains.keys.sorted()
        return PostgresQuery(
            """
            WITH chains AS (
                INSERT INTO certificate_chains (id, chain)
                SELECT * FROM unnest(\(PostgresTextArray(chainIDs))::text[], \(PostgresTextArray(chainIDs.map { chains[$0] }))::text[])
                ON CONFLICT (id) DO NOTHING
            ), batch AS (
                SELECT * FROM unnest(\(column { $0.source.rawValue })::text[], \(column { $0.dedupeKey })::text[],
                                     \(column { $0.notificationType })::text[], \(column { $0.notificationSubtype })::text[],
                                     \(column { $0.environment.rawValue })::text[], \(column { $0.bundleID })::text[],
                                     \(column { $0.originalTransactionID })::text[], \(column { $0.appUserID })::text[],
                                     \(column { $0.body })::text[])
                    AS entry (source, dedupe_key, notification_type, notification_subtype, environment, bundle_id,
                              original_transaction_id, app_user_id, body)
            ), keys AS (
                INSERT INTO notification_keys (dedupe_key, notification_id, received_at)
                SELECT dedupe_key, nextval('notifications_id_seq'), now() FROM batch ORDER BY dedupe_key
                ON CONFLICT (dedupe_key) DO NOTHING
                RETURNING dedupe_key, notification_id, received_at
            )
            INSERT INTO notifications
                (id, received_at, source, dedupe_key, notification_type, notification_subtype, environment, bundle_id,
                 original_transaction_id, app_user_id, body)
            SELECT keys.notification_id, keys.received_at, batch.source, batch.dedupe_key, batch.notification_type,
                   batch.notification_subtype, batch.environment, batch.bundle_id, batch.original_transaction_id,
                   batch.app_user_id, batch.body::jsonb
            FROM batch JOIN keys USING (dedupe_key)
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
        try markProcessed([ProcessedAttempt(notification, note: note)], in: session)
    }

    /// Records successful attempts, one statement for all of them (a group commit's, inside
    /// the transaction that applied their facts). Fenced like a single one: when any claim is
    /// no longer its own, this throws `StaleClaimError` naming the first such, and the
    /// caller's transaction rolls back.
    ///
    /// Not prepared: a connection's generic plan of this join, made while the inbox was new,
    /// scans the inbox instead of probing each claim's row (`OutcomePlanningTests`); planned
    /// for its claims on every call, it probes each row's primary key in its own partition.
    public static func markProcessed(_ attempts: [ProcessedAttempt], in session: PostgresSession) throws {
        guard !attempts.isEmpty else { return }
        let claims = attempts.map(\.notification)
        let recorded = try session.query(
            PostgresQuery(
                """
                WITH claims AS (
                    SELECT * FROM unnest(\(PostgresTextArray(claims.map { String($0.id) }))::bigint[],
                        \(PostgresTextArray(encoding: claims.map(\.receivedAt)))::timestamptz[], \(PostgresTextArray(claims.map { String($0.attempt) }))::integer[],
                        \(PostgresTextArray(encoding: claims.map(\.claimedAt)))::timestamptz[], \(PostgresTextArray(attempts.map(\.note)))::text[])
                        AS c(id, received_at, attempt, started_at, note)
                ), finished AS (
                    UPDATE notifications n SET state = 'processed', processed_at = now(), last_error = NULL, unfinished_claims = 0,
                        isolated_claims = 0, updated_at = now()
                    FROM claims c
                    WHERE n.\(unescaped: fence) AND n.id = c.id AND n.received_at = c.received_at AND n.attempts = c.attempt
                    RETURNING n.id, n.received_at, c.attempt, c.started_at, c.note
                )
                INSERT INTO notification_attempts (notification_id, notification_received_at, attempt, started_at, outcome, error)
                SELECT id, received_at, attempt, started_at, 'processed', note FROM finished
                ON CONFLICT (notification_id, attempt, notification_received_at) DO UPDATE SET outcome = EXCLUDED.outcome, error = EXCLUDED.error,
                    finished_at = now()
                RETURNING notification_id
                """
            )
        ).map { try $0.decode("notification_id", as: Int64.self) }
        guard recorded.count != claims.count else { return }
        let finished = Set(recorded)
        let stale = claims.first { !finished.contains($0.id) } ?? claims[0]
        throw StaleClaimError(notificationID: stale.id, attempt: stale.attempt)
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
                    WHERE \(unescaped: Self.fence) AND id = \(notification.id) AND received_at = \(notification.receivedAt)
                        AND attempts = \(notification.attempt)
                    RETURNING id, received_at
                )
                INSERT INTO notification_attempts (notification_id, notification_received_at, attempt, started_at, outcome, error)
                SELECT id, received_at, \(notification.attempt)::integer, \(notification.claimedAt)::timestamptz, \(outcome)::text,
                       \(reason)::text
                FROM finished
                ON CONFLICT (notification_id, attempt, notification_received_at) DO UPDATE SET outcome = EXCLUDED.outcome, error = EXCLUDED.error,
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

    /// The error of attempt `attempt` of notification `notificationID`.
    public init(notificationID: Int64, attempt: Int) {
        self.notificationID = notificationID
        self.attempt = attempt
    }

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

/// A successful attempt to record: its claim, and the note it leaves on the attempt.
public struct ProcessedAttempt: Sendable {
    public let notification: ClaimedNotification
    public let note: String?

    public init(_ notification: ClaimedNotification, note: String?) {
        self.notification = notification
        self.note = note
    }
}
