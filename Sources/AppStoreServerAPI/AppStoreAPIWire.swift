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

    /// Extend a Subscription Renewal Date: the request.
    struct ExtendRequest: Encodable {
        var extendByDays: Int
        var extendReasonCode: Int
        var requestIdentifier: String
    }

    /// Extend a Subscription Renewal Date: `effectiveDate` is the new expiry (ms).
    struct ExtendResponse: Decodable {
        var originalTransactionId: String?
        var webOrderLineItemId: String?
        var success: Bool?
        var effectiveDate: Int64?
    }

    /// Extend Subscription Renewal Dates for All Active Subscribers: the request.
    struct MassExtendRequest: Encodable {
        var extendByDays: Int
        var extendReasonCode: Int
        var requestIdentifier: String
        var productId: String
        var storefrontCountryCodes: [String]?
    }

    /// Extend Subscription Renewal Dates for All Active Subscribers: the answer.
    struct MassExtendResponse: Decodable {
        var requestIdentifier: String?
    }

    /// Get Status of Subscription Renewal Date Extensions.
    struct MassExtendStatusResponse: Decodable {
        var requestIdentifier: String?
        var complete: Bool?
        var completeDate: Int64?
        var succeededCount: Int?
        var failedCount: Int?
    }
}
