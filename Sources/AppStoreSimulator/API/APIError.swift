import Foundation

/// An App Store Server API error answer: HTTP status and Apple's `{"errorCode","errorMessage"}`.
struct APIError: Error, Sendable {
    var status: Int
    var code: Int
    var message: String
    /// `Retry-After` for 429, UNIX time in milliseconds.
    var retryAfterMilliseconds: Int64?

    /// 401: a bad or missing JWT.
    static func unauthorized(_ why: String) -> APIError {
        APIError(status: 401, code: 4_010_000, message: "Unauthenticated: \(why)")
    }

    /// 404 `TransactionIdNotFoundError`.
    static let transactionNotFound = APIError(status: 404, code: 4_040_010, message: "Transaction id not found.")

    /// 404 `TestNotificationNotFoundError`.
    static let testNotificationNotFound = APIError(
        status: 404, code: 4_040_008,
        message: "Either the test notification token is expired or the notification and status are not yet available.")

    /// 404 `OriginalTransactionIdNotFoundError`.
    static let originalTransactionNotFound = APIError(status: 404, code: 4_040_005, message: "Original transaction id not found.")

    /// 403 `SubscriptionExtensionIneligibleError`.
    static let extensionIneligible = APIError(
        status: 403, code: 4_030_004, message: "Forbidden - subscription state ineligible for extension.")

    /// 403 `SubscriptionMaxExtensionError`.
    static let maximumExtensions = APIError(
        status: 403, code: 4_030_005, message: "Forbidden - subscription has reached maximum extension count.")

    /// 400 with one of Apple's invalid-request codes.
    static func badRequest(_ code: Int, _ message: String) -> APIError {
        APIError(status: 400, code: code, message: message)
    }

    /// 429 `RateLimitExceededError`, retry at `retryAfter` (ms).
    static func rateLimited(retryAfter: Int64) -> APIError {
        APIError(status: 429, code: 4_290_000, message: "Rate limit exceeded.", retryAfterMilliseconds: retryAfter)
    }

    /// 500 `GeneralInternalError` (also 503 with the retryable code).
    static func internalError(status: Int) -> APIError {
        APIError(status: status, code: status == 503 ? 5_000_001 : 5_000_000, message: "An unknown error occurred.")
    }

    /// The JSON body.
    var body: JSONValue {
        .object([("errorCode", .int(code)), ("errorMessage", .string(message))])
    }
}
