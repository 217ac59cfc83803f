import Foundation
import Postgres

/// Operator queries over the inbox: list, show, replay.
public struct InboxQueries: Sendable {
    private let client: PostgresClient

    /// Creates the repository.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// Notifications matching `filter`, newest first.
    ///
    /// Read state by state, each newest first through its index on (state, received_at) and
    /// stopping after `limit` rows, then merged: a page costs the same on a table of millions,
    /// where one scan in time order would read and sort the whole table (no index has the
    /// time first).
    public func list(_ filter: NotificationFilter) async throws -> [NotificationSummary] {
        let states = filter.state.map { [$0.rawValue] } ?? InboxState.allCases.map(\.rawValue)
        return try await client.query(
            """
            SELECT \(unescaped: NotificationSummary.columns)
            FROM unnest(\(states)::text[]) AS wanted(wanted_state) CROSS JOIN LATERAL (
                SELECT \(unescaped: NotificationSummary.columns) FROM notifications
                WHERE state = wanted.wanted_state
                  AND (\(filter.notificationType)::text IS NULL OR notification_type = \(filter.notificationType))
                  AND (\(filter.bundleID)::text IS NULL OR bundle_id = \(filter.bundleID))
                  AND (\(filter.receivedSince)::timestamptz IS NULL OR received_at >= \(filter.receivedSince))
                  AND (\(filter.before?.at)::timestamptz IS NULL OR (received_at, id) < (\(filter.before?.at)::timestamptz, \(filter.before?.id)::bigint))
                ORDER BY received_at DESC, id DESC
                LIMIT \(filter.limit)
            ) AS found
            ORDER BY received_at DESC, id DESC
            LIMIT \(filter.limit)
            """
        ).map(NotificationSummary.init(row:))
    }

    /// The version 2 notification Apple sent with `notificationUUID`, or nil while none is stored.
    public func signedNotification(notificationUUID: String) async throws -> NotificationSummary? {
        try await client.query(
            """
            SELECT \(unescaped: NotificationSummary.columns) FROM notifications
            WHERE (id, received_at) = (
                SELECT notification_id, received_at FROM notification_keys
                WHERE dedupe_key = \(DedupeKey.v2(notificationUUID: notificationUUID)))
            """
        ).first.map(NotificationSummary.init(row:))
    }

    /// One notification with its body and attempts, or nil when there is none with this id.
    public func detail(id: Int64) async throws -> NotificationDetail? {
        try await client.withConnection { session in
            guard
                let row = try session.queryFirst(
                    """
                    SELECT \(unescaped: NotificationSummary.columns), body::text AS body FROM notifications WHERE id = \(id)
                    """)
            else { return nil }
            let attempts = try session.query(
                """
                SELECT attempt, started_at, finished_at, outcome, error FROM notification_attempts
                WHERE notification_id = \(id) ORDER BY attempt
                """
            ).map { row in
                NotificationAttempt(
                    attempt: try row.decode("attempt"), startedAt: try row.decode("started_at"),
                    finishedAt: try row.decode("finished_at"), outcome: try row.decode("outcome"),
                    error: try row.decode("error"))
            }
            return NotificationDetail(
                summary: try NotificationSummary(row: row), body: try StoredCertificateChains.joined(try row.decode("body"), in: session),
                attempts: attempts)
        }
    }

    /// The notifications that concern one subscription, oldest first.
    public func touching(originalTransactionID id: String, environment: String) async throws -> [NotificationSummary] {
        try await client.query(
            """
            SELECT \(unescaped: NotificationSummary.columns) FROM notifications
            WHERE original_transaction_id = \(id) AND environment = \(environment)
            ORDER BY received_at, id
            """
        ).map(NotificationSummary.init(row:))
    }

    /// What a replay did.
    public enum ReplayResult: Sendable, Equatable {
        /// These ids were put back to `pending`.
        case requeued([Int64])
        /// These ids do not exist; nothing was changed.
        case unknown([Int64])
    }

    /// Puts the given notifications back to `pending`, due now, attempts kept: all of them
    /// or, when any id is unknown, none (one transaction).
    public func replay(ids: [Int64]) async throws -> ReplayResult {
        return try await client.withTransaction { session in
            let (wanted, missing) = try Self.lockAll(ids, in: session)
            guard missing.isEmpty else { return .unknown(missing) }
            let texts = wanted.map(String.init)
            try session.execute(
                """
                UPDATE notifications SET state = 'pending', next_attempt_at = now(), unfinished_claims = 0, isolated_claims = 0, updated_at = now()
                WHERE id = ANY(\(texts)::bigint[])
                """)
            return .requeued(wanted)
        }
    }

    /// Puts every `dead` notification back to `pending` in one statement; returns their ids.
    public func replayDead() async throws -> [Int64] {
        try await client.query(
            """
            UPDATE notifications SET state = 'pending', next_attempt_at = now(), unfinished_claims = 0, isolated_claims = 0, updated_at = now()
            WHERE state = 'dead'
            RETURNING id
            """
        ).map { try $0.decode("id", as: Int64.self) }.sorted()
    }

    /// What a discard did.
    public enum DiscardResult: Sendable, Equatable {
        /// These ids are now `dead` with the operator's reason.
        case discarded([Int64])
        /// These ids do not exist; nothing was changed.
        case unknown([Int64])
    }

    /// Ends the given notifications `dead` with an operator's reason, whatever their state:
    /// all of them or, when any id is unknown, none (one transaction). The attempts history
    /// records who and when; the attempt counter moves on, so an attempt still in flight
    /// cannot overwrite the discard. `notifications replay` undoes it.
    public func discard(ids: [Int64], reason: String, actor: String) async throws -> DiscardResult {
        let message = "discarded by \(actor): \(reason)"
        return try await client.withTransaction { session in
            let (wanted, missing) = try Self.lockAll(ids, in: session)
            guard missing.isEmpty else { return .unknown(missing) }
            let texts = wanted.map(String.init)
            try session.execute(
                """
                WITH discarded AS (
                    UPDATE notifications
                    SET state = 'dead', attempts = attempts + 1, unfinished_claims = 0, isolated_claims = 0, last_error = \(message), updated_at = now()
                    WHERE id = ANY(\(texts)::bigint[])
                    RETURNING id, received_at, attempts
                )
                INSERT INTO notification_attempts (notification_id, notification_received_at, attempt, started_at, outcome, error, actor)
                SELECT id, received_at, attempts, now(), 'discarded', \(message), \(actor) FROM discarded
                """)
            return .discarded(wanted)
        }
    }

    /// Locks the rows of `ids` (deduplicated, in id order, so a concurrent change or claim
    /// waits instead of interleaving); returns them sorted and the ones that do not exist.
    private static func lockAll(_ ids: [Int64], in session: PostgresSession) throws -> (wanted: [Int64], missing: [Int64]) {
        let wanted = Array(Set(ids)).sorted()
        let found = Set(
            try session.query(
                """
                SELECT id FROM notifications WHERE id = ANY(\(wanted.map(String.init))::bigint[]) ORDER BY id FOR UPDATE
                """
            ).map { try $0.decode("id", as: Int64.self) })
        return (wanted, wanted.filter { !found.contains($0) })
    }
}
