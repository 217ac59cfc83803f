import Metrics

/// The series that say whether the service does its job (DESIGN.md, "Running it for real"):
/// is Apple reaching us (`notifications_received_total`), is the worker keeping up
/// (`notifications_processed_total`, the inbox gauges), is Apple answering
/// (`upstream_request_duration_seconds`), and is the database there (`database_connections`).
enum PipelineMetrics {
    /// One intake answer: `version` `v1`, `v2` or `unknown` (the body could not be read);
    /// `outcome` `accepted`, `duplicate` or the error code answered (`unauthorized`,
    /// `malformed`, `unavailable`, …).
    static func received(version: String, outcome: String) {
        Counter(label: "subscriptiond_notifications_received_total", dimensions: [("version", version), ("outcome", outcome)]).increment()
    }

    /// One processing attempt's outcome: `processed`, `retrying`, `dead`, `superseded`, or
    /// `unrecorded` (the database failed while recording it; the lease brings it back).
    static func processed(outcome: String) {
        Counter(label: "subscriptiond_notifications_processed_total", dimensions: [("outcome", outcome)]).increment()
    }

    /// One upstream request: `upstream` `verify_receipt`, `app_store_server_api`, `ocsp` or
    /// `webhook`; `status` the HTTP status, or `none` when no answer came.
    static func upstreamRequest(upstream: String, duration: Duration, status: Int?) {
        Timer(
            label: "subscriptiond_upstream_request_duration_seconds",
            dimensions: [
                ("upstream", upstream), ("status", status.map(String.init) ?? "none"),
            ]
        ).record(duration: duration)
    }

    /// One settled CONSUMPTION_REQUEST answer attempt: `sent`, `failed`, `no_consent`,
    /// `expired`, `waiting` (no consent yet) or `retrying`.
    static func consumptionAnswer(outcome: String) {
        Counter(label: "subscriptiond_consumption_answers_total", dimensions: [("outcome", outcome)]).increment()
    }

    /// Notifications not yet processed, and the age of the oldest (0 when none).
    static let inboxPending = Gauge(label: "subscriptiond_inbox_pending")
    static let inboxOldestPendingSeconds = Gauge(label: "subscriptiond_inbox_oldest_pending_seconds")
    /// This process's database pool by `state`: `in_use`, `idle`, `waiting` (callers waiting for one).
    static let databaseInUse = Gauge(label: "subscriptiond_database_connections", dimensions: [("state", "in_use")])
    static let databaseIdle = Gauge(label: "subscriptiond_database_connections", dimensions: [("state", "idle")])
    static let databaseWaiting = Gauge(label: "subscriptiond_database_connections", dimensions: [("state", "waiting")])
    /// Whether the last sample reached the database (1) or not (0).
    static let databaseUp = Gauge(label: "subscriptiond_database_up")
    /// What time alone has made due: subscriptions (status sweep) and users (entitlement reviews).
    static let sweepDue = Gauge(label: "subscriptiond_status_sweep_due")
    static let entitlementReviewsDue = Gauge(label: "subscriptiond_entitlement_reviews_due")
    /// Attempts the worker may have in flight while it yields to intake (`WORKER_YIELD_LATENCY_MS`).
    static let workerAllowedConcurrency = Gauge(label: "subscriptiond_worker_allowed_concurrency")

    /// Records the worker's allowance after a sample of intake's latency.
    static func workerAllowed(_ count: Int) {
        workerAllowedConcurrency.record(count)
    }
}
