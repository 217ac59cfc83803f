import Foundation
import Postgres
import Subscriptions

/// A failure reason and how many notifications share it.
public struct ReasonCount: Sendable, Equatable {
    /// The `last_error` text.
    public let reason: String
    /// Notifications with it.
    public let count: Int

    /// `count` rows failed for `reason`.
    public init(reason: String, count: Int) {
        self.reason = reason
        self.count = count
    }
}

/// The inbox at a glance.
public struct InboxStats: Sendable {
    /// Notifications per state; every state is present, zero when none.
    public let byState: [InboxState: Int]
    /// When the oldest `pending` notification was received (nil: none pending).
    public let oldestPendingReceivedAt: Date?
    /// The most common reasons among `retrying` notifications, most common first.
    public let topRetryingReasons: [ReasonCount]
    /// The most common reasons among `dead` notifications, most common first.
    public let topDeadReasons: [ReasonCount]
}

/// The `subscriptions` table at a glance (stored statuses).
public struct SubscriptionStats: Sendable {
    /// Subscriptions per stored status; every status is present, zero when none.
    public let byStatus: [SubscriptionStatus: Int]
    /// Subscriptions per environment (`Production`, `Sandbox`); both present.
    public let byEnvironment: [String: Int]
    /// Stored rows whose status has run out since they were written (`active` past
    /// `expires_at`, `grace_period` past its end): reads recompute them, and so does
    /// `subscriptionctl revalidate`; the status sweep moves them within a minute.
    public let stale: Int
    /// Subscriptions whose next status change is due (the sweep's backlog), and the oldest
    /// due time: how far behind the sweep is.
    public let sweepDue: Int
    public let oldestDueAt: Date?
    /// Users whose entitlement review is due (changes or time to report), and the oldest due
    /// time: how far behind `entitlement_changed` is.
    public let reviewsDue: Int
    public let oldestReviewDueAt: Date?

    /// Every subscription.
    public var total: Int { byStatus.values.reduce(0, +) }
}

/// Counting queries for `subscriptionctl stats`.
public struct StatsQueries: Sendable {
    let client: PostgresClient

    /// Creates the repository.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// Inbox counts, the oldest pending notification, and the top `reasons` failure reasons.
    public func inbox(reasons: Int = 5) async throws -> InboxStats {
        try await client.withConnection { session in
            var byState = Dictionary(uniqueKeysWithValues: InboxState.allCases.map { ($0, 0) })
            for row in try session.query("SELECT state, count(*) AS n FROM notifications GROUP BY state") {
                if let state = InboxState(rawValue: try row.decode("state")) { byState[state] = try row.decode("n") }
            }
            let oldest = try session.queryFirst(
                """
                SELECT min(received_at) AS oldest FROM notifications WHERE state = 'pending'
                """)?.decode("oldest", as: Date?.self)
            func top(_ state: InboxState) throws -> [ReasonCount] {
                try session.query(
                    """
                    SELECT coalesce(last_error, '(no reason recorded)') AS reason, count(*) AS n FROM notifications
                    WHERE state = \(state.rawValue)
                    GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT \(reasons)
                    """
                ).map { ReasonCount(reason: try $0.decode("reason"), count: try $0.decode("n")) }
            }
            return InboxStats(
                byState: byState, oldestPendingReceivedAt: oldest,
                topRetryingReasons: try top(.retrying), topDeadReasons: try top(.dead))
        }
    }

    /// Subscription counts per status and per environment.
    public func subscriptions() async throws -> SubscriptionStats {
        try await client.withConnection { session in
            var byStatus = Dictionary(uniqueKeysWithValues: SubscriptionStatus.allCases.map { ($0, 0) })
            for row in try session.query("SELECT status, count(*) AS n FROM subscriptions GROUP BY status") {
                if let status = SubscriptionStatus(rawValue: try row.decode("status")) { byStatus[status] = try row.decode("n") }
            }
            var byEnvironment = ["Production": 0, "Sandbox": 0]
            for row in try session.query("SELECT environment, count(*) AS n FROM subscriptions GROUP BY environment") {
                byEnvironment[try row.decode("environment")] = try row.decode("n")
            }
            let stale =
                try session.queryFirst(
                    """
                    SELECT count(*) AS n FROM subscriptions
                    WHERE (status = 'active' AND expires_at <= now())
                       OR (status = 'grace_period' AND grace_period_expires_at <= now())
                    """)?.decode("n", as: Int.self) ?? 0
            let due = try session.queryFirst("SELECT count(*) AS n, min(due_at) AS oldest FROM subscriptions WHERE due_at <= now()")
            let reviews = try session.queryFirst(
                "SELECT count(*) AS n, min(due_at) AS oldest FROM entitlement_reviews WHERE due_at <= now()")
            return SubscriptionStats(
                byStatus: byStatus, byEnvironment: byEnvironment, stale: stale, sweepDue: try due?.decode("n", as: Int.self) ?? 0,
                oldestDueAt: try due?.decode("oldest", as: Date?.self) ?? nil,
                reviewsDue: try reviews?.decode("n", as: Int.self) ?? 0,
                oldestReviewDueAt: try reviews?.decode("oldest", as: Date?.self) ?? nil)
        }
    }
}
