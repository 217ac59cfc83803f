import Foundation
import HTTPTypes
import Hummingbird
import Intake
import UseCases

/// An error answered to an HTTP client as `{"error": "<code>", "message": "<sentence>"}`.
///
/// Every failure a route can report is one of these; `ErrorMappingMiddleware` turns any
/// other error into one, so the contract's error shape holds everywhere.
public struct APIError: HTTPResponseError, Sendable, Equatable {
    /// The HTTP status.
    public let status: HTTPResponse.Status
    /// A stable machine-readable code, e.g. `unauthorized`.
    public let code: String
    /// A sentence for people; never contains secrets or receipts.
    public let message: String
    /// Seconds the client is asked to wait before trying again (`Retry-After`); every 503 has one.
    public let retryAfterSeconds: Int?

    /// Creates an error with an explicit status, code and message; a 503 asks for a retry
    /// after `retryAfterSeconds` (default `APIError.defaultRetryAfterSeconds`).
    public init(_ status: HTTPResponse.Status, code: String, message: String, retryAfterSeconds: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfterSeconds = status == .serviceUnavailable ? retryAfterSeconds ?? APIError.defaultRetryAfterSeconds : retryAfterSeconds
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = try JSONEncoder().encode(["error": code, "message": message])
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        // Apple and well-behaved clients retry a 503; say when it is worth it.
        if let retryAfterSeconds { headers[.retryAfter] = "\(retryAfterSeconds)" }
        return Response(status: status, headers: headers, body: .init(byteBuffer: .init(bytes: body)))
    }
}

extension APIError {
    /// Seconds a client is asked to wait after a 503.
    static let defaultRetryAfterSeconds = 5

    /// 400: the body or a parameter is malformed.
    public static func malformed(_ message: String) -> APIError { .init(.badRequest, code: "malformed", message: message) }
    /// 401: missing or wrong credentials.
    public static func unauthorized(_ message: String) -> APIError { .init(.unauthorized, code: "unauthorized", message: message) }
    /// 403: the key lacks the scope, or does not see the app, that the request needs.
    public static func forbidden(_ message: String) -> APIError { .init(.forbidden, code: "forbidden", message: message) }
    /// 404: nothing with that id.
    public static func notFound(_ message: String) -> APIError { .init(.notFound, code: "not_found", message: message) }
    /// 413: the body is larger than allowed.
    public static func tooLarge(_ limit: Int) -> APIError {
        .init(.contentTooLarge, code: "too_large", message: "the body is larger than the \(limit)-byte limit")
    }
    /// 415: the body is not JSON.
    public static func unsupportedMediaType(_ message: String) -> APIError {
        .init(.unsupportedMediaType, code: "unsupported_media_type", message: message)
    }
    /// 422: the upstream rejected the receipt.
    public static func receiptRejected(_ message: String) -> APIError {
        .init(.unprocessableContent, code: "receipt_rejected", message: message)
    }
    /// 422: a signed transaction's signature or app did not check out.
    public static func signatureRejected(_ message: String) -> APIError {
        .init(.unprocessableContent, code: "signature_rejected", message: message)
    }
    /// 503: the database (or another dependency) is unavailable; retrying later can succeed.
    public static func unavailable(_ message: String) -> APIError {
        .init(.serviceUnavailable, code: "unavailable", message: message)
    }
    /// 503: the unauthenticated bodies being read already hold `INTAKE_MAX_INFLIGHT_BYTES`;
    /// this one was not read. Room comes back as soon as those bodies are handled.
    public static let overloaded = APIError(
        .serviceUnavailable, code: "overloaded",
        message: "too many request bodies are being received at once; try again shortly", retryAfterSeconds: 1)
    /// 500: a bug or an unexpected failure; details are in the log under the request id.
    public static func internalError(requestID: String) -> APIError {
        .init(.internalServerError, code: "internal", message: "internal error; see the server log for request \(requestID)")
    }
}

extension APIError {
    /// Intake's refusal of a body: 400 or 401.
    init(_ refusal: IntakeRefusal) {
        switch refusal.kind {
        case .malformed: self = .malformed(refusal.message)
        case .unauthorized: self = .unauthorized(refusal.message)
        }
    }

    /// A use case's refusal, by its kind.
    init(_ error: UseCaseError) {
        switch error {
        case .malformed(let message): self = .malformed(message)
        case .receiptRejected(let message): self = .receiptRejected(message)
        case .signatureRejected(let message): self = .signatureRejected(message)
        case .unavailable(let message): self = .unavailable(message)
        case .unknownEntitlement(let message): self = .init(.notFound, code: "unknown_entitlement", message: message)
        case .notFound(let message): self = .notFound(message)
        case .ownedByOtherUser(let message): self = .init(.conflict, code: "owned_by_other_user", message: message)
        case .notConfigured(let message): self = .init(.conflict, code: "not_configured", message: message)
        case .notEligible(let message): self = .init(.forbidden, code: "not_eligible", message: message)
        case .unverifiedTransaction(let message): self = .init(.unprocessableContent, code: "unverified_transaction", message: message)
        case .forbidden(let message): self = .forbidden(message)
        case .alreadyExists(let message): self = .init(.conflict, code: "already_exists", message: message)
        }
    }
}
