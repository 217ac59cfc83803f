import Foundation
import Logging
import Prometheus
import ServiceSupport
import UseCases
import Webhooks

/// What `buildApplication` needs besides the configuration.
public struct ApplicationEnvironment: Sendable {
    /// The process's logger.
    public var logger: Logger
    /// The registry `/metrics` exposes (bootstrapped into swift-metrics by the executable).
    public var metricsRegistry: PrometheusCollectorRegistry
    /// Called with the bound port once the server listens (tests use port 0).
    public var onServerRunning: @Sendable (Int) async -> Void
    /// When failed notifications are tried again.
    public var retryPolicy: RetryPolicy
    /// How often the worker looks for due work when nothing signals it.
    public var workerPollInterval: Duration
    /// False to run intake and API only (tests of intake alone).
    public var runsWorker: Bool
    /// When failed webhook deliveries are tried again (tests shorten it).
    public var webhookRetryPolicy: WebhookRetryPolicy
    /// How often the retention job runs.
    public var retentionInterval: Duration
    /// How often the status sweep looks for subscriptions whose time has come.
    public var sweepInterval: Duration
    /// How often the rollup job looks for changed chains to count into the reports.
    public var reportRollupInterval: Duration
    /// How often the consumption sender looks for CONSUMPTION_REQUESTs to answer.
    public var consumptionInterval: Duration
    /// The clock intake judges a signed notification's age by (tests of Apple's dated fixtures pin it).
    public var intakeClock: @Sendable () -> Date
    /// How often the pipeline's gauges (inbox backlog, database pool, sweep backlog) are sampled.
    public var metricsSampleInterval: Duration
    /// systemd's readiness and watchdog socket (`$NOTIFY_SOCKET`; does nothing when unset).
    public var systemd: SystemdNotifier

    /// Creates the environment.
    public init(
        logger: Logger,
        metricsRegistry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
        retryPolicy: RetryPolicy = RetryPolicy(),
        workerPollInterval: Duration = .milliseconds(500),
        runsWorker: Bool = true,
        webhookRetryPolicy: WebhookRetryPolicy = WebhookRetryPolicy(),
        retentionInterval: Duration = .seconds(3_600),
        sweepInterval: Duration = .seconds(10),
        reportRollupInterval: Duration = .seconds(2),
        consumptionInterval: Duration = .seconds(5),
        intakeClock: @escaping @Sendable () -> Date = Date.init,
        metricsSampleInterval: Duration = .seconds(15),
        systemd: SystemdNotifier = SystemdNotifier(environment: ProcessInfo.processInfo.environment)
    ) {
        self.logger = logger
        self.metricsRegistry = metricsRegistry
        self.onServerRunning = onServerRunning
        self.retryPolicy = retryPolicy
        self.workerPollInterval = workerPollInterval
        self.runsWorker = runsWorker
        self.webhookRetryPolicy = webhookRetryPolicy
        self.retentionInterval = retentionInterval
        self.sweepInterval = sweepInterval
        self.reportRollupInterval = reportRollupInterval
        self.consumptionInterval = consumptionInterval
        self.intakeClock = intakeClock
        self.metricsSampleInterval = metricsSampleInterval
        self.systemd = systemd
    }
}
