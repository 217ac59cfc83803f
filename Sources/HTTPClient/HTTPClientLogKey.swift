/// Logger metadata keys used by the HTTP client, in one place so they stay consistent.
enum HTTPClientLogKey {
    static let method = "http.method"
    static let url = "http.url"
    static let status = "http.status"
    static let durationMilliseconds = "http.duration_ms"
    static let error = "http.error"
}
