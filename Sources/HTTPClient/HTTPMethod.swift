/// The HTTP methods the client sends.
public enum HTTPMethod: String, Sendable, Hashable {
    /// `GET`: no request body is sent.
    case get = "GET"
    /// `POST`: the request body is sent as-is.
    case post = "POST"
    /// `PUT`: the request body is sent as-is.
    case put = "PUT"
    /// `DELETE`: no request body is sent.
    case delete = "DELETE"
}
