import Metrics

/// The webhook series on `/metrics`: deliveries by outcome, and the outbox's lag.
struct WebhookMetrics: Sendable {
    /// Attempts the receiver acknowledged.
    let delivered = Counter(label: "subscriptiond_webhook_deliveries_total", dimensions: [("outcome", "delivered")])
    /// Attempts that failed and will be retried.
    let retried = Counter(label: "subscriptiond_webhook_deliveries_total", dimensions: [("outcome", "retry")])
    /// Attempts after which the event was given up (`dead`).
    let dead = Counter(label: "subscriptiond_webhook_deliveries_total", dimensions: [("outcome", "dead")])
    /// Events waiting (pending or retrying).
    let unfinished = Gauge(label: "subscriptiond_webhook_unfinished_events")
    /// Age of the oldest waiting event, in seconds (0 when none).
    let lag = Gauge(label: "subscriptiond_webhook_lag_seconds")
}
