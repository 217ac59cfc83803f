/// An HTTP answer.
public struct SimHTTPResponse: Sendable, Hashable {
    /// The HTTP status code.
    public let status: Int
    /// The body.
    public let body: [UInt8]

    /// The body as text.
    public var text: String {
        String(decoding: body, as: UTF8.self)
    }
}

/// Why a request got no HTTP answer.
public enum SimHTTPError: Error, Sendable, Hashable {
    /// No complete answer before the timeout.
    case timeout
    /// The connection closed (or was reset) before a complete answer.
    case connectionClosed
    /// The URL is not `http://host:port/path`.
    case badURL(String)
}
