import Foundation
import Logging
import Metrics
import ServiceLifecycle
import ServiceSupport
import Settings
import Store
import UseCases
import Webhooks

/// The background service that sends the outbox to the apps' backends: claims due events
/// (`SKIP LOCKED`, several processes side by side; only the oldest unfinished event of each
/// subscription, so one subscription's events arrive in order) and delivers up to
/// `concurrency` at once. A kill mid-delivery loses nothing: the claim's lease runs out and
/// the event is sent again (at least once; receivers dedupe by event id).
public struct WebhookDelivery: Service {
    /// Tuning knobs.
    public struct Configuration: Sendable {
        /// Deliveries in flight at once.
        public var concurrency: Int
        /// How long a claim keeps other processes away; longer than one request can take.
        public var lease: Duration
        /// How often to look for due events when nothing signals.
        public var pollInterval: Duration
        /// When failed deliveries are tried again, and for how long.
        public var retry: WebhookRetryPolicy

        /// Creates a configuration.
        public init(concurrency: Int, lease: Duration, pollInterval: Duration = .milliseconds(500), retry: WebhookRetryPolicy = .init()) {
            self.concurrency = max(1, concurrency)
            self.lease = lease
            self.pollInterval = pollInterval
            self.retry = retry
        }
    }

    private let outbox: WebhookOutbox
    private let sender: WebhookSender
    private let apps: AppRegistry
    private let configuration: Configuration
    private let logger: Logger
    private let metrics = WebhookMetrics()

    /// Creates the service.
    public init(outbox: WebhookOutbox, sender: WebhookSender, apps: AppRegistry, configuration: Configuration, logger: Logger) {
        self.outbox = outbox
        self.sender = sender
        self.apps = apps
        self.configuration = configuration
        self.logger = logger
    }

    public func run() async throws {
        let targets = apps.bundleIDs.filter { apps.app(bundleID: $0)?.webhook != nil }
        let signal = WorkerSignal()
        let (outbox, configuration) = (self.outbox, self.configuration)
        let lastHousekeeping = HousekeepingClock(every: .seconds(10))
        await ClaimLoop<ClaimedWebhookEvent>(
            concurrency: configuration.concurrency, pollInterval: configuration.pollInterval, signal: signal,
            what: "webhook events", logger: logger
        ).run(
            beforeClaiming: {
                if await lastHousekeeping.isDue() { await housekeeping(targets: targets) }
            },
            claim: { limit in
                targets.isEmpty ? [] : try await outbox.claimDue(limit: limit, lease: configuration.lease, bundleIDs: targets)
            },
            handle: { claim in
                await deliver(claim)
                // The subscription's next event may be due now.
                await signal.signal()
            }
        )
        logger.info("webhook delivery stopped")
    }

    /// Ends events of apps without a URL `dead` (with the reason) and updates the lag gauges.
    private func housekeeping(targets: [String]) async {
        do {
            let buried = try await outbox.buryUnconfigured(bundleIDs: targets)
            if buried > 0 {
                logger.info("webhook events of apps without a webhook URL ended dead", metadata: ["count": "\(buried)"])
            }
            let backlog = try await outbox.backlog()
            metrics.unfinished.record(backlog.unfinished)
            metrics.lag.record(backlog.oldestCreatedAt.map { max(0, Date().timeIntervalSince($0)) } ?? 0)
        } catch {
            logger.debug("webhook housekeeping failed; will try again", metadata: [LogKey.error: "\(error)"])
        }
    }

    private func deliver(_ claim: ClaimedWebhookEvent) async {
        var logger = logger
        logger[metadataKey: LogKey.webhookEventID] = "\(claim.event.eventID)"
        logger[metadataKey: LogKey.attempt] = "\(claim.attempt)"
        let attempt = WebhookAttempt(outbox: outbox, sender: sender, apps: apps, retry: configuration.retry)
        do {
            switch try await attempt.deliver(claim, logger: logger) {
            case .delivered: metrics.delivered.increment()
            case .retrying: metrics.retried.increment()
            case .dead: metrics.dead.increment()
            case .superseded, .notConfigured: break
            }
        } catch {
            // Recording the outcome failed (database trouble): the lease brings it back.
            logger.warning(
                "could not record the webhook outcome; the event will be sent again after its lease",
                metadata: [LogKey.error: "\(error)"])
        }
    }
}

/// Says when a periodic chore is due again: at once the first time, then every `interval`.
private actor HousekeepingClock {
    private let interval: Duration
    private var last: ContinuousClock.Instant?

    init(every interval: Duration) {
        self.interval = interval
    }

    func isDue() -> Bool {
        let now = ContinuousClock.now
        if let last, now - last < interval { return false }
        last = now
        return true
    }
}
