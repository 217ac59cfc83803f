/// A complete HTTP request: everything is in memory, nothing is streamed.
public struct HTTPRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The absolute `http://` or `https://` URL.
    public var url: String
    /// Header fields sent in order; curl adds `Host` and `Content-Length` itself.
    public var headers: [HTTPHeader]
    /// The request body; ignored for `GET`.
    public var body: [UInt8]
    /// The limit for the whole exchange, from connecting to the last response byte.
    public var timeout: Duration

    /// Creates a request.
    public init(
        method: HTTPMethod,
        url: String,
        headers: [HTTPHeader] = [],
        body: [UInt8] = [],
        timeout: Duration
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// A `POST` of a JSON body that also asks for a JSON answer.
    public static func postJSON(url: String, body: [UInt8], timeout: Duration) -> HTTPRequest {
        HTTPRequest(
            method: .post,
            url: url,
            headers: [
                HTTPHeader(name: "Content-Type", value: "application/json"),
                HTTPHeader(name: "Accept", value: "application/json"),
            ],
            body: body,
            timeout: timeout
        )
    }

    /// A plain `GET` without extra headers.
    public static func get(url: String, timeout: Duration) -> HTTPRequest {
        HTTPRequest(method: .get, url: url, timeout: timeout)
    }
}
