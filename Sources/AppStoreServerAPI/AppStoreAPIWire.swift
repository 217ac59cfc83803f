import Foundation

/// The JSON bodies Apple's App Store Server API sends and accepts, exactly as on the wire.
///
/// Internal: callers see only the verified, typed results. Every field is optional so a
/// missing field surfaces as a clear refusal where it matters, never as a decoding trap.
enum AppStoreAPIWire {
    /// `{"errorCode":N,"errorMessage":"…"}`; only the code is kept.
    struct ErrorBody: Decodable {
        var errorCode: Int?
    }

    /// Get All Subscription Statuses.
    struct StatusResponse: Decodable {
        var data: [GroupItem]?
    }

    /// One subscription group of a status answer.
    struct GroupItem: Decodable {
        var subscriptionGroupIdentifier: String?
        var lastTransactions: [LastTransactionItem]?
    }

    /// One `lastTransactions` entry.
    struct LastTransactionItem: Decodable {
        var originalTransactionId: String?
        var status: Int?
        var signedTransactionInfo: String?
        var signedRenewalInfo: String?
    }

    /// Get Transaction History v2, and Get Refund History v2 (the same shape).
    struct HistoryResponse: Decodable {
        var revision: String?
        var hasMore: Bool?
        var signedTransactions: [String]?
    }

    /// Look Up Order ID: `status` 0 valid, 1 invalid.
    struct OrderLookupResponse: Decodable {
        var status: Int?
        var signedTransactions: [String]?
    }

    /// Get Transaction Info.
    struct TransactionInfoResponse: Decodable {
        var signedTransactionInfo: String?
    }

    /// Get App Transaction Info.
    struct AppTransactionInfoResponse: Decodable {
        var signedAppTransactionInfo: String?
    }

    /// Get Notification History.
    struct NotificationHistoryResponse: Decodable {
        var notificationHistory: [NotificationHistoryItem]?
        var hasMore: Bool?
        var paginationToken: String?
    }

    /// One notification of the history, or the test notification's status.
    struct NotificationHistoryItem: Decodable {
        var signedPayload: String?
        var sendAttempts: [SendAttemptItem]?
    }

    /// One delivery attempt.
    struct SendAttemptItem: Decodable {
        var attemptDate: Int64?
        var sendAttemptResult: String?
    }

    /// Request a Test Notification.
    struct TestNotificationResponse: Decodable {
        var testNotificationToken: String?
    }

    /// The body of a notification history request.
    struct NotificationHistoryRequest: Encodable {
        var startDate: Int64
        var endDate: Int64
        var notificationType: String?
        var transactionId: String?
        var onlyFailures: Bool?
    }
}
