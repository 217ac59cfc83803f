import Foundation
import Postgres

/// The outbox at a glance: outcomes and lag.
public struct WebhookStats: Sendable {
    /// Events per state; every state is present, zero when none.
    public let byState: [WebhookEventState: Int]
    /// When the oldest unfinished (pending or retrying) event was created (nil: none): the lag.
    public let oldestUnfinishedCreatedAt: Date?
    /// The most common reasons among `retrying` and `dead` events, most common first.
    public let topFailureReasons: [ReasonCount]
}

/// What retention did last.
public struct RetentionRun: Sendable {
    /// When it ran.
    public let ranAt: Date
    /// Notifications processed before this lost their receipts.
    public let cutoff: Date
    /// Notification bodies whose receipts were removed by that run.
    public let receiptsRemoved: Int
    /// v2 bodies whose `signedPayload` was removed (RETENTION_DROP_SIGNED).
    public let signedRemoved: Int
    /// Whether signed payloads were being dropped.
    public let dropSigned: Bool
}

extension StatsQueries {
    /// Outbox counts, the oldest unfinished event, and the top `reasons` failure reasons.
    public func webhooks(reasons: Int = 5) async throws -> WebhookStats {
        try await client.withConnection { session in
            var byState = Dictionary(uniqueKeysWithValues: WebhookEventState.allCases.map { ($0, 0) })
            for row in try session.query("SELECT state, count(*) AS n FROM webhook_events GROUP BY state") {
                if let state = WebhookEventState(rawValue: try row.decode("state")) { byState[state] = try row.decode("n") }
            }
            let oldest = try session.queryFirst(
                """
                SELECT min(created_at) AS oldest FROM webhook_events WHERE state IN ('pending', 'retrying')
                """)?.decode("oldest", as: Date?.self)
            let top = try session.query(
                """
                SELECT coalesce(last_error, '(no reason recorded)') AS reason, count(*) AS n FROM webhook_events
                WHERE state IN ('retrying', 'dead')
                GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT \(reasons)
                """
            ).map { ReasonCount(reason: try $0.decode("reason"), count: try $0.decode("n")) }
            return WebhookStats(byState: byState, oldestUnfinishedCreatedAt: oldest, topFailureReasons: top)
        }
    }

    /// The latest retention run, or nil when retention never ran.
    public func lastRetention() async throws -> RetentionRun? {
        try await client.query(
            """
            SELECT ran_at, cutoff, receipts_removed, signed_removed, drop_signed FROM retention_runs ORDER BY id DESC LIMIT 1
            """
        ).first.map(RetentionRun.init(row:))
    }
}

extension RetentionRun {
    init(row: PostgresRow) throws {
        self.init(
            ranAt: try row.decode("ran_at"), cutoff: try row.decode("cutoff"), receiptsRemoved: try row.decode("receipts_removed"),
            signedRemoved: try row.decode("signed_removed"), dropSigned: try row.decode("drop_signed"))
    }
}
