import Foundation
import Postgres

/// The reads behind the console's pipeline panel: the inbox's and the outbox's counts (the
/// queries `subscriptionctl stats` and the metrics use), the consumption requests waiting,
/// and when a notification was last processed.
public struct PipelineQueries: Sendable {
    private let client: PostgresClient

    /// Queries over `client`'s database.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// Notifications per state, the oldest pending, and the top `reasons` reasons of retrying
    /// and dead ones (`StatsQueries.inbox`).
    public func inbox(reasons: Int) async throws -> InboxStats {
        try await StatsQueries(client: client).inbox(reasons: reasons)
    }

    /// Notifications not yet done (pending or retrying) and when the oldest arrived
    /// (`NotificationInbox.backlog`, the worker's backlog gauge).
    public func unfinishedNotifications() async throws -> (unfinished: Int, oldestReceivedAt: Date?) {
        try await NotificationInbox(client: client).backlog()
    }

    /// Webhook events per state, the oldest unfinished, and the top `reasons` failure reasons
    /// (`StatsQueries.webhooks`).
    public func webhooks(reasons: Int) async throws -> WebhookStats {
        try await StatsQueries(client: client).webhooks(reasons: reasons)
    }

    /// CONSUMPTION_REQUESTs not answered yet and the earliest deadline among them (Apple takes
    /// no answer after it).
    public func pendingConsumptionRequests() async throws -> (pending: Int, earliestDeadline: Date?) {
        try await client.countAndOldest(
            "SELECT count(*) AS n, min(deadline) AS oldest FROM consumption_requests WHERE state = 'pending'")
    }

    /// When the most recently processed notification was processed (nil: none ever was, or
    /// retention dropped them all).
    public func newestProcessedAt() async throws -> Date? {
        try await client.query(
            """
            SELECT processed_at FROM notifications WHERE state = 'processed' AND processed_at IS NOT NULL
            ORDER BY processed_at DESC LIMIT 1
            """
        ).first?.decode("processed_at", as: Date.self)
    }
}
