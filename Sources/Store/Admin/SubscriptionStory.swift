import AppStore
import Foundation
import Postgres
import Subscriptions

/// One recorded status change of a subscription (`status_events`).
public struct StatusEvent: Sendable {
    /// The status before (nil when the subscription first appeared).
    public let oldStatus: String?
    /// The status after.
    public let newStatus: String
    /// The notification whose processing caused it, if any.
    public let notificationID: Int64?
    /// When it was recorded.
    public let occurredAt: Date
}

/// Everything stored about one subscription, for `subscriptionctl subscription show`.
public struct SubscriptionStory: Sendable {
    /// Status (computed now), transactions and renewal info.
    public let view: SubscriptionView
    /// The notifications that concern it, oldest first.
    public let notifications: [NotificationSummary]
    /// Its status changes, oldest first.
    public let statusEvents: [StatusEvent]
    /// When the customer turned auto-renew off, as the notifications tell it: the start of
    /// the latest unbroken run of "off" statements. Nil when auto-renew is on or no
    /// notification says when it went off.
    public let autoRenewTurnedOffAt: Date?
    /// When `subscriptionctl revalidate` last got a final answer for it.
    public let revalidatedAt: Date?
    /// That answer: `verified` or `rejected: <reason>`.
    public let revalidationOutcome: String?

    /// Loads the story of an original transaction (Production preferred over Sandbox), or nil.
    public static func load(originalTransactionID id: String, client: PostgresClient, now: Date = Date()) async throws -> SubscriptionStory?
    {
        guard let view = try await SubscriptionReader(client: client).subscription(originalTransactionID: id, now: now) else { return nil }
        let environment = view.snapshot.environment.rawValue
        let notifications = try await InboxQueries(client: client).touching(originalTransactionID: id, environment: environment)
        return try await client.withConnection { session in
            let events = try session.query(
                """
                SELECT old_status, new_status, notification_id, occurred_at FROM status_events
                WHERE environment = \(environment) AND original_transaction_id = \(id) ORDER BY id
                """
            ).map { row in
                StatusEvent(
                    oldStatus: try row.decode("old_status"), newStatus: try row.decode("new_status"),
                    notificationID: try row.decode("notification_id"), occurredAt: try row.decode("occurred_at"))
            }
            let revalidation = try session.queryFirst(
                """
                SELECT revalidated_at, revalidation_outcome FROM subscriptions
                WHERE environment = \(environment) AND original_transaction_id = \(id)
                """)
            let statements = try session.query(
                """
                SELECT received_at, body->>'auto_renew_status' AS auto_renew_status,
                       body->>'auto_renew_status_change_date_ms' AS change_ms
                FROM notifications
                WHERE original_transaction_id = \(id) AND environment = \(environment) AND source = 'v1'
                  AND body ? 'auto_renew_status'
                """
            ).map { row -> (at: Date, on: Bool) in
                let changeMS = (try row.decode("change_ms", as: String?.self)).flatMap(Double.init)
                let at = try changeMS.map { Date(timeIntervalSince1970: $0 / 1000) } ?? row.decode("received_at", as: Date.self)
                let text = (try row.decode("auto_renew_status", as: String?.self))?.lowercased()
                return (at, text == "true" || text == "1")
            }
            return SubscriptionStory(
                view: view, notifications: notifications, statusEvents: events,
                autoRenewTurnedOffAt: view.snapshot.autoRenew == false ? Self.turnedOff(statements) : nil,
                revalidatedAt: try revalidation?.decode("revalidated_at", as: Date?.self),
                revalidationOutcome: try revalidation?.decode("revalidation_outcome", as: String?.self)
            )
        }
    }

    /// The first of the trailing "off" statements, in the order Apple said them.
    static func turnedOff(_ statements: [(at: Date, on: Bool)]) -> Date? {
        var since: Date?
        for statement in statements.sorted(by: { $0.at < $1.at }) {
            since = statement.on ? nil : (since ?? statement.at)
        }
        return since
    }
}

/// Reads subscriptions' stories (`SubscriptionStory.load`) from one database: for the console.
public struct SubscriptionStoryReader: Sendable {
    private let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    /// Everything stored about one subscription, or nil when there is none.
    public func story(originalTransactionID: String, now: Date = Date()) async throws -> SubscriptionStory? {
        try await SubscriptionStory.load(originalTransactionID: originalTransactionID, client: client, now: now)
    }
}
