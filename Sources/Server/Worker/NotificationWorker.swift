import Foundation
import Logging
import ServiceLifecycle
import ServiceSupport
import Store
import UseCases

/// The background service that drains the inbox: claims due notifications (several
/// workers and processes share the inbox through `SKIP LOCKED`) and processes up to
/// `concurrency` at once. On graceful shutdown it stops claiming and lets in-flight
/// attempts finish; an attempt cut short is retried after its lease by any worker.
public struct NotificationWorker: Service {
    /// Tuning knobs.
    public struct Configuration: Sendable {
        /// Attempts in flight at once.
        public var concurrency: Int
        /// How long a claim keeps other workers away; longer than one attempt can take.
        public var lease: Duration
        /// How often to look for due work when nothing signals.
        public var pollInterval: Duration
        /// Claims of an entry running alone that may end without an outcome (the process died
        /// mid-attempt) before it is declared dead instead of being claimed again. Deaths
        /// beside other attempts never count: the entry is then run alone (a suspect).
        public var maxIsolatedDeaths: Int
        /// How often the busy worker looks for suspects to run alone.
        public var suspectCheckInterval: Duration

        /// Creates a configuration.
        public init(
            concurrency: Int, lease: Duration, pollInterval: Duration = .milliseconds(500), maxIsolatedDeaths: Int = 3,
            suspectCheckInterval: Duration = .seconds(5)
        ) {
            self.concurrency = max(1, concurrency)
            self.lease = lease
            self.pollInterval = pollInterval
            self.maxIsolatedDeaths = max(1, maxIsolatedDeaths)
            self.suspectCheckInterval = suspectCheckInterval
        }
    }

    private let inbox: NotificationInbox
    private let processor: NotificationProcessor
    private let signal: WorkerSignal
    private let configuration: Configuration
    private let intakeLatency: IntakeLatencyWindow?
    private let logger: Logger

    /// Creates the worker; with `intakeLatency` (this process's intake records into it) it
    /// yields to intake while intake is slow (`WorkerYield`).
    init(
        inbox: NotificationInbox, processor: NotificationProcessor, signal: WorkerSignal, configuration: Configuration,
        intakeLatency: IntakeLatencyWindow?, logger: Logger
    ) {
        self.inbox = inbox
        self.processor = processor
        self.signal = signal
        self.configuration = configuration
        self.intakeLatency = intakeLatency
        self.logger = logger
    }

    public func run() async throws {
        let (inbox, configuration) = (self.inbox, self.configuration)
        await ClaimLoop<ClaimedNotification>(
            concurrency: configuration.concurrency, pollInterval: configuration.pollInterval, signal: signal,
            what: "notifications", logger: logger
        ).run(
            yield: intakeLatency.map { WorkerYield(window: $0, maximum: configuration.concurrency, logger: logger) },
            isolated: IsolatedClaims(
                isDue: { try await inbox.hasSuspectDue() },
                claimOne: { try await inbox.claimSuspect(lease: configuration.lease, maxIsolatedDeaths: configuration.maxIsolatedDeaths) },
                checkInterval: configuration.suspectCheckInterval
            ),
            claim: { limit in try await inbox.claimDue(limit: limit, lease: configuration.lease) },
            handle: { notification in await attempt(notification) }
        )
        logger.info("worker stopped")
    }

    private func attempt(_ notification: ClaimedNotification) async {
        do {
            let outcome = try await processor.process(notification, logger: logger)
            PipelineMetrics.processed(outcome: outcome.metricName)
        } catch {
            PipelineMetrics.processed(outcome: "unrecorded")
            // Recording the outcome failed (database trouble): the lease brings it back.
            logger.warning(
                "could not record the outcome; the notification will be retried after its lease",
                metadata: [LogKey.notificationID: "\(notification.id)", LogKey.error: "\(error)"])
        }
    }
}

extension NotificationProcessor.Outcome {
    /// The `outcome` label of `subscriptiond_notifications_processed_total`.
    var metricName: String {
        switch self {
        case .processed: "processed"
        case .retrying: "retrying"
        case .dead: "dead"
        case .superseded: "superseded"
        }
    }
}
