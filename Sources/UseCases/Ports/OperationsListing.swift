import Foundation
import Store

/// Where the inbox is listed (`InboxQueries` in production).
public protocol NotificationListing: Sendable {
    /// The notifications matching `filter`, newest first.
    func list(_ filter: NotificationFilter) async throws -> [NotificationSummary]
}

/// Where the webhook outbox is listed (`WebhookQueries` in production).
public protocol WebhookEventListing: Sendable {
    /// Events in `state` (nil: any) after `before` (nil: from the newest), newest first, at most `limit`.
    func list(state: WebhookEventState?, before: ListCursor?, limit: Int) async throws -> [WebhookEventSummary]
}
