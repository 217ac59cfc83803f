import AppStore
import Foundation

/// Why an App Store Server API call failed, classified for retrying.
///
/// `description` is safe to log: it never holds a token, a key, a URL query or Apple's
/// `errorMessage` text (products must not depend on that text; the numeric `errorCode` is kept).
public enum AppStoreAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Apple knows the transaction in neither environment (404 `TransactionIdNotFound` in both).
    case notFound
    /// 401: Apple refused the token: the key, issuer id, key id or bundle id is wrong.
    case unauthorized(environment: AppStoreEnvironment)
    /// 429 after the client's own bounded waits; `retryAfter` is when Apple allows the next request.
    case rateLimited(environment: AppStoreEnvironment, retryAfter: Date?)
    /// 5xx, a timeout or a connection failure, after the client's own bounded retries.
    case unavailable(environment: AppStoreEnvironment, reason: String)
    /// A 2xx answer that does not decode as the endpoint's JSON.
    case malformedAnswer(environment: AppStoreEnvironment)
    /// A signed item of the answer failed verification, or belongs to another app or environment.
    case untrustedAnswer(environment: AppStoreEnvironment, reason: String)
    /// Any other 4xx answer, with Apple's numeric `errorCode` when it sent one.
    case rejected(environment: AppStoreEnvironment, status: Int, errorCode: Int?)
    /// The request cannot be sent as asked (e.g. a notification history start beyond 180 days).
    case invalidRequest(reason: String)
    /// The transport cannot work as configured (TLS failure, unusable URL, oversized answer).
    case misconfigured(environment: AppStoreEnvironment, reason: String)
    /// The `.p8` key text does not parse as a P-256 private key.
    case invalidPrivateKey

    /// How a caller should treat the failure.
    public enum Retry: Sendable, Hashable {
        /// Trouble that can heal; `limited` means worth only a few more tries.
        case retry(limited: Bool)
        /// Retrying will not help.
        case permanent
    }

    /// The retry classification, like `VerificationResult`'s.
    public var retry: Retry {
        switch self {
        case .rateLimited, .unavailable: .retry(limited: false)
        case .malformedAnswer: .retry(limited: true)
        case .notFound, .unauthorized, .untrustedAnswer, .rejected, .invalidRequest, .misconfigured, .invalidPrivateKey:
            .permanent
        }
    }

    /// Whether sending the same request later may succeed.
    public var isRetryable: Bool { retry != .permanent }

    /// A short, safe explanation for logs and the CLI.
    public var description: String {
        switch self {
        case .notFound:
            "App Store Server API: transaction not found in production or sandbox"
        case .unauthorized(let environment):
            "App Store Server API \(environment.label) refused the token (401): check the key file, key id, issuer id and bundle id"
        case .rateLimited(let environment, let retryAfter):
            "App Store Server API \(environment.label) rate limited (429)"
                + (retryAfter.map { ", retry after \($0.ISO8601Format())" } ?? "")
        case .unavailable(let environment, let reason):
            "App Store Server API \(environment.label) unavailable: \(reason)"
        case .malformedAnswer(let environment):
            "App Store Server API \(environment.label) sent an unreadable answer"
        case .untrustedAnswer(let environment, let reason):
            "App Store Server API \(environment.label) answer not trusted: \(reason)"
        case .rejected(let environment, let status, let errorCode):
            "App Store Server API \(environment.label) rejected the request: HTTP \(status)" + (errorCode.map { ", errorCode \($0)" } ?? "")
        case .invalidRequest(let reason):
            "App Store Server API request not sent: \(reason)"
        case .misconfigured(let environment, let reason):
            "App Store Server API \(environment.label) cannot be reached as configured: \(reason)"
        case .invalidPrivateKey:
            "the App Store Server API private key is not a PKCS#8 P-256 key (.p8)"
        }
    }
}

extension AppStoreEnvironment {
    /// `production` or `sandbox`, for messages.
    var label: String { rawValue.lowercased() }
}
