import Metrics

/// Connections the server closed to protect itself, on `/metrics`.
enum ConnectionGuardMetrics {
    /// A request that did not arrive whole within `HTTP_REQUEST_TIMEOUT_MS`.
    static func requestTimedOut() {
        Counter(label: "subscriptiond_http_connections_closed_total", dimensions: [("reason", "request_timeout")]).increment()
    }

    /// A connection from an address already holding `HTTP_MAX_CONNECTIONS_PER_ADDRESS`.
    static func addressAtCap() {
        Counter(label: "subscriptiond_http_connections_closed_total", dimensions: [("reason", "address_cap")]).increment()
    }
}
