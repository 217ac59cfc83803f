/// A complete HTTP response, whatever its status.
public struct HTTPResponse: Sendable {
    /// The status code of the final response, e.g. 200 or 503.
    public let status: Int
    /// The header fields of the final response, in the order received.
    public let headers: [HTTPHeader]
    /// The whole response body.
    public let body: [UInt8]

    /// Creates a response; the client does this, tests and fakes may too.
    public init(status: Int, headers: [HTTPHeader], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether the status is in the 2xx range.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
