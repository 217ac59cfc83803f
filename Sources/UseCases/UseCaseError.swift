/// Why a use case refused a request, in words fit for the caller; each edge maps the kind
/// once (HTTP: 400, 422, 503; the CLI: one line and a non-zero exit).
public enum UseCaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request itself is wrong (a missing or unknown app, a receipt that does not parse).
    case malformed(String)
    /// Apple rejected the receipt, or does not know what it names.
    case receiptRejected(String)
    /// A signed transaction did not verify, or Apple refused the lookup.
    case signatureRejected(String)
    /// Apple, or something on the way, cannot answer now; the same request can succeed later.
    case unavailable(String)
    /// The catalog has no such entitlement.
    case unknownEntitlement(String)
    /// What the request names does not exist (a grant).
    case notFound(String)
    /// The purchase belongs to another app user (its app account token, or the `refuse` link policy).
    case ownedByOtherUser(String)
    /// The request needs a setting this installation lacks (an app's In-App Purchase key).
    case notConfigured(String)
    /// A catalog rule does not give the customer what was asked (a promotional offer's audiences).
    case notEligible(String)
    /// A signature was asked for a transaction this server has not verified for the customer.
    case unverifiedTransaction(String)
    /// The principal asking lacks the scope, or does not see the app, that this needs.
    case forbidden(String)
    /// Something of that name exists already (an API key).
    case alreadyExists(String)

    public var description: String {
        switch self {
        case .malformed(let message), .receiptRejected(let message), .signatureRejected(let message), .unavailable(let message),
            .unknownEntitlement(let message), .notFound(let message), .ownedByOtherUser(let message), .notConfigured(let message),
            .notEligible(let message), .unverifiedTransaction(let message), .forbidden(let message), .alreadyExists(let message):
            message
        }
    }
}
