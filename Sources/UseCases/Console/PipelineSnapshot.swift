import Foundation
import Store

/// How the pipeline is doing at one moment, for the console's overview: what waits in the
/// inbox and the webhook outbox and since when, what failed for good, what Apple still waits
/// for, and when the worker last finished a notification.
public struct PipelineSnapshot: Sendable, Equatable {
    /// When it was read.
    public let takenAt: Date
    /// Notifications waiting for their first attempt (`pending`).
    public let notificationsPending: Int
    /// Notifications that failed in a way that can heal, tried again later (`retrying`).
    public let notificationsRetrying: Int
    /// When the oldest `pending` notification arrived (nil: none).
    public let oldestPendingNotificationAt: Date?
    /// When the oldest notification not yet done (pending or retrying) arrived (nil: none).
    public let oldestUnfinishedNotificationAt: Date?
    /// Notifications given up on (`dead`); an admin replays them.
    public let deadNotifications: Int
    /// When the most recently processed notification was processed (nil: none yet).
    public let newestProcessedNotificationAt: Date?
    /// Webhook events waiting for their first attempt.
    public let webhooksPending: Int
    /// Webhook events whose delivery failed and is tried again.
    public let webhooksRetrying: Int
    /// When the oldest unfinished (pending or retrying) webhook event was written (nil: none).
    public let oldestUnfinishedWebhookAt: Date?
    /// Webhook events given up on (`dead`).
    public let deadWebhooks: Int
    /// CONSUMPTION_REQUESTs not answered yet.
    public let consumptionRequestsPending: Int
    /// The earliest deadline among them (Apple takes no answer after it).
    public let earliestConsumptionDeadline: Date?
    /// The most common reasons among retrying notifications, most common first (empty unless asked for).
    public let topRetryingReasons: [ReasonCount]
    /// The most common reasons among dead notifications, most common first (empty unless asked for).
    public let topDeadReasons: [ReasonCount]
    /// The most common reasons among retrying and dead webhook events (empty unless asked for).
    public let topWebhookFailureReasons: [ReasonCount]

    /// A snapshot of these values (the use case reads them; page tests make their own).
    public init(
        takenAt: Date, notificationsPending: Int, notificationsRetrying: Int, oldestPendingNotificationAt: Date?,
        oldestUnfinishedNotificationAt: Date?, deadNotifications: Int, newestProcessedNotificationAt: Date?, webhooksPending: Int,
        webhooksRetrying: Int, oldestUnfinishedWebhookAt: Date?, deadWebhooks: Int, consumptionRequestsPending: Int,
        earliestConsumptionDeadline: Date?, topRetryingReasons: [ReasonCount] = [], topDeadReasons: [ReasonCount] = [],
        topWebhookFailureReasons: [ReasonCount] = []
    ) {
        self.takenAt = takenAt
        self.notificationsPending = notificationsPending
        self.notificationsRetrying = notificationsRetrying
        self.oldestPendingNotificationAt = oldestPendingNotificationAt
        self.oldestUnfinishedNotificationAt = oldestUnfinishedNotificationAt
        self.deadNotifications = deadNotifications
        self.newestProcessedNotificationAt = newestProcessedNotificationAt
        self.webhooksPending = webhooksPending
        self.webhooksRetrying = webhooksRetrying
        self.oldestUnfinishedWebhookAt = oldestUnfinishedWebhookAt
        self.deadWebhooks = deadWebhooks
        self.consumptionRequestsPending = consumptionRequestsPending
        self.earliestConsumptionDeadline = earliestConsumptionDeadline
        self.topRetryingReasons = topRetryingReasons
        self.topDeadReasons = topDeadReasons
        self.topWebhookFailureReasons = topWebhookFailureReasons
    }

    /// Notifications not yet done: pending and retrying.
    public var notificationsUnfinished: Int { notificationsPending + notificationsRetrying }
    /// Webhook events not yet done: pending and retrying.
    public var webhooksUnfinished: Int { webhooksPending + webhooksRetrying }

    /// How long the oldest unfinished notification has waited at `takenAt` (nil: none waits).
    public var notificationLag: TimeInterval? { oldestUnfinishedNotificationAt.map { max(0, takenAt.timeIntervalSince($0)) } }
    /// How long the oldest unfinished webhook event has waited at `takenAt` (nil: none waits).
    public var webhookLag: TimeInterval? { oldestUnfinishedWebhookAt.map { max(0, takenAt.timeIntervalSince($0)) } }
}
