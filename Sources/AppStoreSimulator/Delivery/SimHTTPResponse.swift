/// An HTTP answer.
public struct SimHTTPResponse: Sendable, Hashable {
    /// The HTTP status code.
    public let status: Int
    /// The body.
    public let body: [UInt8]
    /// The headers, names lowercased (a repeated header keeps its last value).
    public var headers: [String: String] = [:]

    /// An answer from its parts.
    init(status: Int, body: [UInt8], headers: [String: String] = [:]) {
        self.status = status
        self.body = body
        self.headers = headers
    }

    /// The value of header `name` (any case).
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

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
