import Foundation

/// One delivery attempt of a v2 notification, as Get Notification History reports it.
public struct SendAttempt: Sendable, Hashable {
    /// When it was tried.
    public var date: Date
    /// Apple's `sendAttemptResult`: `SUCCESS`, `NO_RESPONSE`, `UNSUCCESSFUL_HTTP_RESPONSE_CODE`, ...
    public var result: String

    /// An attempt from its parts.
    public init(date: Date, result: String) {
        self.date = date
        self.result = result
    }

    /// Apple's value for a 2xx answer.
    public static let success = "SUCCESS"

    /// The JSON member of `sendAttempts`.
    var json: JSONValue {
        .object([("attemptDate", SignedTransactionRenderer.millis(date)), ("sendAttemptResult", .string(result))])
    }
}
