import Foundation
import Store

/// Where the inbox is listed (`InboxQueries` in production).
public protocol NotificationListing: Sendable {
    /// The notifications matching `filter`, newest first.
    func list(_ filter: NotificationFilter) async throws -> [NotificationSummary]
    /// One notification with its stored body and attempts, or nil.
    func detail(id: Int64) async throws -> NotificationDetail?
}

/// Where the webhook outbox is listed (`WebhookQueries` in production).
public protocol WebhookEventListing: Sendable {
    /// Events in `state` (nil: any) after `before` (nil: from the newest), newest first, at most `limit`.
    func list(state: WebhookEventState?, before: ListCursor?, limit: Int) async throws -> [WebhookEventSummary]
    /// One event by outbox id or event id (`evt_…`), or nil.
    func detail(id: String) async throws -> WebhookEventSummary?
}

/// Where Apple's refund requests (CONSUMPTION_REQUEST) and our answers are listed
/// (`ConsumptionStore` in production).
public protocol ConsumptionRequestListing: Sendable {
    /// Requests in `state` (nil: any), newest first, at most `limit`.
    func list(state: ConsumptionRequest.State?, limit: Int) async throws -> [ConsumptionRequest]
}
