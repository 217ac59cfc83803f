/// Why a signed payload (JWS) was not accepted.
///
/// Three kinds, mapped to HTTP in one place by the caller: ``Kind-swift.enum/malformed`` (not a
/// JWS at all, answer 400), ``Kind-swift.enum/rejected`` (a JWS that fails a check, answer
/// 401) and ``Kind-swift.enum/unavailable`` (online checks on and a revocation responder did
/// not answer: answer 503, try again later). `description` says only the kind, safe to show to anyone; `reason` is a short
/// fixed phrase for logs that never echoes input.
public struct SignedPayloadError: Error, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The three ways a signed payload fails.
    public enum Kind: Sendable, Hashable {
        /// Not a compact JWS: wrong part count, bad base64url, header or payload not JSON of the expected shape.
        case malformed
        /// A JWS that failed verification: algorithm, certificate chain, signature or app identity.
        case rejected
        /// Not checkable now: an OCSP responder gave no answer. Never an acceptance; retry.
        case unavailable
    }

    private enum Code: String, Sendable, Hashable {
        case partCount = "not three parts"
        case base64URL = "bad base64url"
        case headerJSON = "header is not a JSON object"
        case payloadJSON = "payload does not decode"
        case algorithm = "alg is not ES256"
        case chainLength = "x5c is missing or not three certificates"
        case certificateEncoding = "x5c certificate does not parse"
        case untrustedChain = "certificate chain does not verify"
        case leafKey = "leaf key is not P-256"
        case signature = "signature does not verify"
        case signedDate = "signedDate is before the roots' validity or more than a day ahead"
        case nested = "nested signed data rejected"
        case app = "app identity does not match"
        case environment = "unknown environment"
        case revocationUnavailable = "an OCSP responder of the chain did not answer"
        case revoked = "a certificate of the chain is revoked, or its OCSP answer does not verify"
    }

    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// Whether the input was not a JWS at all (400), a JWS that failed a check (401), or one
    /// that cannot be checked now (503).
    public var kind: Kind {
        switch code {
        case .partCount, .base64URL, .headerJSON, .payloadJSON: .malformed
        case .revocationUnavailable: .unavailable
        default: .rejected
        }
    }

    /// A short fixed reason for logs.
    public var reason: String { code.rawValue }

    /// Safe to show to the sender: the kind only.
    public var description: String {
        switch kind {
        case .malformed: "malformed signed payload"
        case .rejected: "signed payload rejected"
        case .unavailable: "signed payload not checkable now"
        }
    }

    /// The kind and the short reason, for logs.
    public var debugDescription: String { "\(description): \(reason)" }

    static let partCount = Self(.partCount)
    static let base64URL = Self(.base64URL)
    static let headerJSON = Self(.headerJSON)
    static let payloadJSON = Self(.payloadJSON)
    static let algorithm = Self(.algorithm)
    static let chainLength = Self(.chainLength)
    static let certificateEncoding = Self(.certificateEncoding)
    static let untrustedChain = Self(.untrustedChain)
    static let leafKey = Self(.leafKey)
    static let signature = Self(.signature)
    static let signedDate = Self(.signedDate)
    static let nested = Self(.nested)
    static let app = Self(.app)
    static let environment = Self(.environment)
    static let revocationUnavailable = Self(.revocationUnavailable)
    static let revoked = Self(.revoked)
}
