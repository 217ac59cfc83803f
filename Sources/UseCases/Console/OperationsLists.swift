import Foundation
import Store

/// One page of the console's notifications list, newest first.
public struct NotificationPage: Sendable {
    /// The notifications on it.
    public let items: [NotificationSummary]
    /// Where the next (older) page starts; nil on the last page.
    public let next: ListCursor?
}

/// One page of the console's webhooks list, newest first.
public struct WebhookEventPage: Sendable {
    /// The events on it.
    public let items: [WebhookEventSummary]
    /// Where the next (older) page starts; nil on the last page.
    public let next: ListCursor?
}

/// The console's notifications and webhooks pages: the inbox and the outbox, filtered and
/// paged newest first, through the same queries as `subscriptionctl notifications list` and
/// `webhooks list`.
public struct OperationsLists: Sendable {
    private let notificationListing: any NotificationListing
    private let webhookListing: any WebhookEventListing
    private let consumptionListing: any ConsumptionRequestListing

    /// The lists over `notifications` and `webhooks`.
    public init(
        notifications: any NotificationListing, webhooks: any WebhookEventListing, consumptionRequests: any ConsumptionRequestListing
    ) {
        notificationListing = notifications
        webhookListing = webhooks
        consumptionListing = consumptionRequests
    }

    /// Notifications in `state` (`pending`, `retrying`, `processed`, `dead`; nil: any) of
    /// `type` (Apple's `notification_type`, exact; nil or empty: any), after `before`, at most
    /// `limit` (up to `CustomerDirectory.maximumLimit`). Throws `UseCaseError.malformed` for
    /// an unknown state.
    public func notifications(state: String?, type: String?, before: ListCursor? = nil, limit: Int = 50) async throws -> NotificationPage {
        let inboxState = try Self.parse(state, as: InboxState.self)
        let type = type.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        // No type Apple sends holds NUL (which PostgreSQL refuses in text) or runs this long.
        if let type, type.utf8.contains(0) || type.utf8.count > CustomerDirectory.maximumSearchBytes {
            return NotificationPage(items: [], next: nil)
        }
        let limit = Self.clamped(limit)
        let found = try await notificationListing.list(
            NotificationFilter(state: inboxState, notificationType: type, before: before, limit: limit + 1))
        let items = Array(found.prefix(limit))
        return NotificationPage(items: items, next: found.count > limit ? items.last?.cursor : nil)
    }

    /// Webhook events in `state` (`pending`, `delivered`, `retrying`, `dead`; nil: any) after
    /// `before`, at most `limit`. Throws `UseCaseError.malformed` for an unknown state.
    public func webhookEvents(state: String?, before: ListCursor? = nil, limit: Int = 50) async throws -> WebhookEventPage {
        let eventState = try Self.parse(state, as: WebhookEventState.self)
        let limit = Self.clamped(limit)
        let found = try await webhookListing.list(state: eventState, before: before, limit: limit + 1)
        let items = Array(found.prefix(limit))
        return WebhookEventPage(items: items, next: found.count > limit ? items.last?.cursor : nil)
    }

    /// The notification `id` with its stored body and attempts; nil when there is none.
    public func notification(id: Int64) async throws -> NotificationDetail? {
        try await notificationListing.detail(id: id)
    }

    /// The webhook event `id` (the outbox's number); nil when there is none.
    public func webhookEvent(id: Int64) async throws -> WebhookEventSummary? {
        try await webhookListing.detail(id: "\(id)")
    }

    /// Apple's refund requests in `state` (`pending`, `sent`, `failed`, `no_consent`,
    /// `expired`; nil: any), newest first, at most `limit`.
    public func refundRequests(state: String?, limit: Int = 100) async throws -> [ConsumptionRequest] {
        try await consumptionListing.list(state: try Self.parse(state, as: ConsumptionRequest.State.self), limit: Self.clamped(limit))
    }

    private static func clamped(_ limit: Int) -> Int { max(1, min(limit, CustomerDirectory.maximumLimit)) }

    /// The state `text` names (nil or empty: none); an unknown one is the caller's mistake.
    private static func parse<State: RawRepresentable & CaseIterable>(_ text: String?, as: State.Type) throws -> State?
    where State.RawValue == String {
        guard let text, !text.isEmpty else { return nil }
        guard let state = State(rawValue: text) else {
            let known = State.allCases.map(\.rawValue).joined(separator: ", ")
            throw UseCaseError.malformed("state must be one of \(known)")
        }
        return state
    }
}
