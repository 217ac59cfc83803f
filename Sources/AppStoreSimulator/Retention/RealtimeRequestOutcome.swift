import Foundation

/// What one request of a performance test came to.
struct RealtimeRequestOutcome: Sendable, Hashable {
    /// How long the answer took, in milliseconds; `nil` for a request never sent (the test's
    /// time ran out first).
    var milliseconds: Int64?
    /// Apple's failure reason (`TIMED_OUT`, `UNSUCCESSFUL_HTTP_RESPONSE_CODE`,
    /// `INVALID_RESPONSE`, `NO_RESPONSE`, `OTHER`); `nil` for a success.
    var failure: String?

    /// A success that took `milliseconds`.
    static func success(_ milliseconds: Int64) -> RealtimeRequestOutcome {
        RealtimeRequestOutcome(milliseconds: milliseconds, failure: nil)
    }
}
