import Foundation
import Store

/// Where the console reads how the pipeline is doing (`PipelineQueries` in production).
public protocol PipelineSource: Sendable {
    /// Notifications per state, the oldest pending, and the top `reasons` failure reasons.
    func inbox(reasons: Int) async throws -> InboxStats
    /// Notifications not yet done (pending or retrying) and when the oldest arrived.
    func unfinishedNotifications() async throws -> (unfinished: Int, oldestReceivedAt: Date?)
    /// Webhook events per state, the oldest unfinished, and the top `reasons` failure reasons.
    func webhooks(reasons: Int) async throws -> WebhookStats
    /// CONSUMPTION_REQUESTs not answered yet and the earliest deadline among them.
    func pendingConsumptionRequests() async throws -> (pending: Int, earliestDeadline: Date?)
    /// When the most recently processed notification was processed.
    func newestProcessedAt() async throws -> Date?
}
