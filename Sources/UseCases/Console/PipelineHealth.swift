import Foundation
import Store

/// The console overview's pipeline panel: what waits in the inbox and the webhook outbox and
/// since when, what is dead, what Apple waits for, and when the worker last finished one.
public struct PipelineHealth: Sendable {
    private let source: any PipelineSource

    /// The panel over `source`.
    public init(source: any PipelineSource) {
        self.source = source
    }

    /// The pipeline now, with the `reasons` most common failure reasons of each kind (none by
    /// default: counting them reads every failed row).
    public func snapshot(reasons: Int = 0, now: Date = Date()) async throws -> PipelineSnapshot {
        let inbox = try await source.inbox(reasons: max(0, reasons))
        let unfinished = try await source.unfinishedNotifications()
        let webhooks = try await source.webhooks(reasons: max(0, reasons))
        let consumption = try await source.pendingConsumptionRequests()
        return PipelineSnapshot(
            takenAt: now, notificationsPending: inbox.byState[.pending] ?? 0, notificationsRetrying: inbox.byState[.retrying] ?? 0,
            oldestPendingNotificationAt: inbox.oldestPendingReceivedAt, oldestUnfinishedNotificationAt: unfinished.oldestReceivedAt,
            deadNotifications: inbox.byState[.dead] ?? 0, newestProcessedNotificationAt: try await source.newestProcessedAt(),
            webhooksPending: webhooks.byState[.pending] ?? 0, webhooksRetrying: webhooks.byState[.retrying] ?? 0,
            oldestUnfinishedWebhookAt: webhooks.oldestUnfinishedCreatedAt, deadWebhooks: webhooks.byState[.dead] ?? 0,
            consumptionRequestsPending: consumption.pending, earliestConsumptionDeadline: consumption.earliestDeadline,
            topRetryingReasons: inbox.topRetryingReasons, topDeadReasons: inbox.topDeadReasons,
            topWebhookFailureReasons: webhooks.topFailureReasons)
    }
}
