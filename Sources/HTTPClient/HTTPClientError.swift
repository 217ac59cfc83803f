/// An HTTP exchange that failed, or a response whose status the caller refused.
///
/// `description` is safe to log or show: it names the kind of failure only, never a URL,
/// a header or a body. curl's own message, which may name the host, is kept for
/// `debugDescription`.
public struct HTTPClientError: Error, CustomStringConvertible, CustomDebugStringConvertible, Sendable {
    /// What went wrong, coarse enough to decide on a retry.
    public enum Kind: Sendable, Hashable {
        /// The request did not finish within its timeout.
        case timeout
        /// Nothing accepted the TCP connection.
        case connectionRefused
        /// The host name did not resolve.
        case couldNotResolveHost
        /// The peer's certificate or the TLS configuration failed: retrying will not help.
        case tls
        /// The TLS handshake broke off (a reset, an unexpected record): often a passing network
        /// fault or an overloaded peer, so it is retried like any transport failure.
        case tlsHandshake
        /// The URL (or a header) cannot be sent: malformed, or not `http`/`https`.
        case invalidURL
        /// The response body was larger than the configured limit.
        case responseTooLarge
        /// The server answered with a status the caller did not accept.
        case httpStatus(Int)
        /// Any other transport failure reported by libcurl.
        case transport
        /// Too many requests were already waiting for a transfer thread; nothing was sent.
        case overloaded
    }

    /// What went wrong.
    public var kind: Kind
    /// libcurl's `CURLcode`, when libcurl reported the failure.
    var curlCode: Int?
    /// libcurl's error buffer or our own detail; only for `debugDescription`.
    var detail: String?

    /// Creates an error of one kind, e.g. for a fake client in tests.
    public init(kind: Kind) {
        self.init(kind: kind, curlCode: nil, detail: nil)
    }

    /// Creates an error with libcurl's code and message (or our own detail) for debugging.
    init(kind: Kind, curlCode: Int?, detail: String?) {
        self.kind = kind
        self.curlCode = curlCode
        self.detail = detail
    }

    /// Creates an error for a refused HTTP status.
    public static func httpStatus(_ status: Int) -> HTTPClientError {
        HTTPClientError(kind: .httpStatus(status))
    }

    /// Whether sending the same request again later may succeed.
    public var isRetryable: Bool {
        switch kind {
        case .timeout, .connectionRefused, .couldNotResolveHost, .transport, .overloaded, .tlsHandshake:
            return true
        case .httpStatus(let status):
            return status == 429 || (500..<600).contains(status)
        case .tls, .invalidURL, .responseTooLarge:
            return false
        }
    }

    /// A short, safe summary such as `HTTPClientError.timeout`.
    public var description: String {
        switch kind {
        case .timeout: "HTTPClientError.timeout"
        case .connectionRefused: "HTTPClientError.connectionRefused"
        case .couldNotResolveHost: "HTTPClientError.couldNotResolveHost"
        case .tls: "HTTPClientError.tls"
        case .tlsHandshake: "HTTPClientError.tlsHandshake"
        case .invalidURL: "HTTPClientError.invalidURL"
        case .responseTooLarge: "HTTPClientError.responseTooLarge"
        case .httpStatus(let status): "HTTPClientError.httpStatus(\(status))"
        case .transport: "HTTPClientError.transport"
        case .overloaded: "HTTPClientError.overloaded"
        }
    }

    /// The summary plus libcurl's code and message, for debugging only.
    public var debugDescription: String {
        var text = description
        if let curlCode { text += " (CURLcode \(curlCode))" }
        if let detail, !detail.isEmpty { text += ": \(detail)" }
        return text
    }
}
