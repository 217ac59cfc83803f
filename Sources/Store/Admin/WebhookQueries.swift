import Foundation
import Postgres

/// One outbox row as operators see it.
public struct WebhookEventSummary: Sendable {
    /// The event (what its body is rendered from).
    public let event: WebhookEvent
    /// `pending`, `delivered`, `retrying` or `dead`.
    public let state: WebhookEventState
    /// Delivery attempts so far.
    public let attempts: Int
    /// When the next attempt is due (meaningful while pending or retrying).
    public let nextAttemptAt: Date
    /// Why the last attempt failed (a short excerpt).
    public let lastError: String?
    /// The receiver's HTTP status of the last attempt, when it answered.
    public let lastStatus: Int?
    /// When the receiver acknowledged it.
    public let deliveredAt: Date?

    /// Where the list continues after this event.
    public var cursor: ListCursor { ListCursor(at: event.createdAt, id: event.id) }
}

/// Operator queries over the outbox: list, show, replay.
public struct WebhookQueries: Sendable {
    private let client: PostgresClient

    /// Creates the repository.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// The event's columns (as the delivery claim reads them) and its delivery state.
    private static let deliveryColumns: StaticString = """
        w.state, w.attempts, w.next_attempt_at, w.last_error, w.last_status, w.delivered_at
        """

    /// Events, newest first, optionally only those in `state`, after `before` (nil: from the newest).
    ///
    /// Read state by state through the index on (state, created_at), each stopping after
    /// `limit` rows, then merged, as `InboxQueries.list` does.
    public func list(state: WebhookEventState?, before: ListCursor? = nil, limit: Int) async throws -> [WebhookEventSummary] {
        let states = state.map { [$0.rawValue] } ?? WebhookEventState.allCases.map(\.rawValue)
        return try await client.query(
            """
            SELECT w.* FROM unnest(\(states)::text[]) AS wanted(wanted_state) CROSS JOIN LATERAL (
                SELECT \(unescaped: WebhookEvent.columns), \(unescaped: Self.deliveryColumns) FROM webhook_events AS w
                WHERE w.state = wanted.wanted_state
                  AND (\(before?.at)::timestamptz IS NULL OR (w.created_at, w.id) < (\(before?.at)::timestamptz, \(before?.id)::bigint))
                ORDER BY w.created_at DESC, w.id DESC
                LIMIT \(limit)
            ) AS w
            ORDER BY w.created_at DESC, w.id DESC
            LIMIT \(limit)
            """
        ).map(Self.summary(row:))
    }

    /// One event by outbox id or event id (`evt_…`), or nil.
    public func detail(id: String) async throws -> WebhookEventSummary? {
        let number = Int64(id)
        return try await client.query(
            """
            SELECT \(unescaped: WebhookEvent.columns), \(unescaped: Self.deliveryColumns) FROM webhook_events AS w
            WHERE w.event_id = \(id) OR (\(number)::bigint IS NOT NULL AND w.id = \(number))
            """
        ).map(Self.summary(row:)).first
    }

    /// Puts the given events back to `pending`, due now (delivered ones are sent again):
    /// all of them or, when any id is unknown, none. Returns `.unknown` with the missing ids.
    public func replay(ids: [Int64]) async throws -> InboxQueries.ReplayResult {
        let wanted = Array(Set(ids)).sorted()
        let texts = wanted.map(String.init)
        return try await client.withTransaction { session in
            let found = Set(
                try session.query(
                    """
                    SELECT id FROM webhook_events WHERE id = ANY(\(texts)::bigint[]) ORDER BY id FOR UPDATE
                    """
                ).map { try $0.decode("id", as: Int64.self) })
            let missing = wanted.filter { !found.contains($0) }
            guard missing.isEmpty else { return .unknown(missing) }
            // attempts moves on, so an attempt still in flight cannot overwrite the replay.
            try session.execute(
                """
                UPDATE webhook_events SET state = 'pending', attempts = attempts + 1, next_attempt_at = now(), replayed_at = now(),
                    updated_at = now()
                WHERE id = ANY(\(texts)::bigint[])
                """)
            return .requeued(wanted)
        }
    }

    /// Puts every `dead` event back to `pending`; returns their ids.
    public func replayDead() async throws -> [Int64] {
        try await client.query(
            """
            UPDATE webhook_events SET state = 'pending', next_attempt_at = now(), replayed_at = now(), updated_at = now()
            WHERE state = 'dead'
            RETURNING id
            """
        ).map { try $0.decode("id", as: Int64.self) }.sorted()
    }

    private static func summary(row: PostgresRow) throws -> WebhookEventSummary {
        let stateText: String = try row.decode("state")
        guard let state = WebhookEventState(rawValue: stateText) else { throw StoreError("unknown webhook state \(stateText)") }
        return WebhookEventSummary(
            event: try WebhookEvent(row: row), state: state, attempts: try row.decode("attempts"),
            nextAttemptAt: try row.decode("next_attempt_at"), lastError: try row.decode("last_error"),
            lastStatus: try row.decode("last_status"), deliveredAt: try row.decode("delivered_at"))
    }
}
