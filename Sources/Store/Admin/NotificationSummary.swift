import AppStore
import Foundation
import Postgres

/// One inbox row as operators see it in lists: everything but the body.
public struct NotificationSummary: Sendable {
    /// Inbox id.
    public let id: Int64
    /// `v1`, `v2` or `receipt`.
    public let source: String
    /// Apple's `notification_type` (nil for queued receipts).
    public let notificationType: String?
    /// Apple's v2 `subtype`, when any.
    public let notificationSubtype: String?
    /// `pending`, `retrying`, `processed` or `dead`.
    public let state: String
    /// `Production` or `Sandbox`.
    public let environment: String
    /// The app's bundle id.
    public let bundleID: String
    /// The subscription it concerns, when the body says.
    public let originalTransactionID: String?
    /// The app user a queued receipt links.
    public let appUserID: String?
    /// Processing attempts so far.
    public let attempts: Int
    /// When it was stored.
    public let receivedAt: Date
    /// When it was applied.
    public let processedAt: Date?
    /// When the worker will next try it (meaningful while pending or retrying).
    public let nextAttemptAt: Date
    /// Why the last attempt failed.
    public let lastError: String?

    /// The columns `init(row:)` reads, for SELECT lists.
    static let columns: StaticString = """
        id, source, notification_type, notification_subtype, state, environment, bundle_id, original_transaction_id, app_user_id,
        attempts, received_at, processed_at, next_attempt_at, last_error
        """

    /// Where the list continues after this row.
    public var cursor: ListCursor { ListCursor(at: receivedAt, id: id) }

    /// `TYPE` or `TYPE/SUBTYPE` (v2), or the source for queued receipts.
    public var kind: String {
        guard let notificationType else { return source }
        return notificationSubtype.map { "\(notificationType)/\($0)" } ?? notificationType
    }

    init(row: PostgresRow) throws {
        id = try row.decode("id")
        source = try row.decode("source")
        notificationType = try row.decode("notification_type")
        notificationSubtype = try row.decode("notification_subtype")
        state = try row.decode("state")
        environment = try row.decode("environment")
        bundleID = try row.decode("bundle_id")
        originalTransactionID = try row.decode("original_transaction_id")
        appUserID = try row.decode("app_user_id")
        attempts = try row.decode("attempts")
        receivedAt = try row.decode("received_at")
        processedAt = try row.decode("processed_at")
        nextAttemptAt = try row.decode("next_attempt_at")
        lastError = try row.decode("last_error")
    }
}

/// One processing attempt of a notification (`notification_attempts`).
public struct NotificationAttempt: Sendable {
    /// The attempt's number, from 1.
    public let attempt: Int
    /// When the worker claimed it.
    public let startedAt: Date
    /// When its outcome was recorded.
    public let finishedAt: Date
    /// `processed`, `retry` or `dead`.
    public let outcome: String
    /// Why it failed, if it did.
    public let error: String?
}

/// A notification with its stored body and processing history, for `notifications show`.
public struct NotificationDetail: Sendable {
    /// The row without the body.
    public let summary: NotificationSummary
    /// The stored JSON body (stored without the shared secret).
    public let body: String
    /// Every attempt, oldest first.
    public let attempts: [NotificationAttempt]
}

/// Which notifications `notifications list` shows; nil fields do not filter.
public struct NotificationFilter: Sendable {
    /// Only this state.
    public var state: InboxState?
    /// Only this `notification_type` (exact).
    public var notificationType: String?
    /// Only this app.
    public var bundleID: String?
    /// Only those received at or after this time.
    public var receivedSince: Date?
    /// Only those after this one in the list's order (the next page); nil: from the newest.
    public var before: ListCursor?
    /// At most this many, newest first.
    public var limit: Int

    /// Creates a filter.
    public init(
        state: InboxState? = nil, notificationType: String? = nil, bundleID: String? = nil, receivedSince: Date? = nil,
        before: ListCursor? = nil, limit: Int = 50
    ) {
        self.state = state
        self.notificationType = notificationType
        self.bundleID = bundleID
        self.receivedSince = receivedSince
        self.before = before
        self.limit = limit
    }
}
