import Logging

/// The worker's side of sharing a process with intake: before each claim, how many
/// notifications it may start now. It samples intake's latency every `sampleInterval` and
/// moves the allowance by `WorkerYieldPolicy`; at an allowance of none it still starts one
/// notification per `trickleInterval`, so a worker whose intake stays slow for another
/// reason (a slow disk) lags but never stops, and says so in the log.
actor WorkerYield {
    /// How often intake's latency is sampled.
    static let sampleInterval: Duration = .milliseconds(100)
    /// At an allowance of none, one claim per this (20 per second).
    static let trickleInterval: Duration = .milliseconds(50)
    /// How long the worker trickles before the log says so.
    static let trickleWarningAfter: Duration = .seconds(60)

    private let window: IntakeLatencyWindow
    private var policy: WorkerYieldPolicy
    private let logger: Logger
    private var sampledAt: ContinuousClock.Instant
    private var trickledAt: ContinuousClock.Instant?
    private var tricklingSince: ContinuousClock.Instant?
    private var warned = false

    init(window: IntakeLatencyWindow, maximum: Int, logger: Logger, now: ContinuousClock.Instant = .now) {
        self.window = window
        self.policy = WorkerYieldPolicy(maximum: maximum)
        self.logger = logger
        self.sampledAt = now
    }

    /// How many claims may start now, with `inFlight` attempts running; 0 means look again shortly.
    func allowance(inFlight: Int, now: ContinuousClock.Instant = .now) -> Int {
        if now - sampledAt >= Self.sampleInterval {
            sampledAt = now
            policy.update(after: window.take())
            PipelineMetrics.workerAllowed(policy.allowed)
            noteTrickle(now: now)
        }
        if policy.allowed > 0 {
            return max(0, policy.allowed - inFlight)
        }
        if let trickledAt, now - trickledAt < Self.trickleInterval {
            return 0
        }
        trickledAt = now
        return 1
    }

    private func noteTrickle(now: ContinuousClock.Instant) {
        guard policy.allowed == 0 else {
            if warned {
                logger.notice("intake is fast again; the worker takes its concurrency back")
            }
            tricklingSince = nil
            warned = false
            return
        }
        let since = tricklingSince ?? now
        tricklingSince = since
        if !warned, now - since >= Self.trickleWarningAfter {
            warned = true
            logger.warning(
                "intake's p99 has stayed above WORKER_YIELD_LATENCY_MS (\(window.threshold)) for a minute, so the worker processes only 20 notifications a second; if intake is slow for another reason (the database), raise the setting or set 0"
            )
        }
    }
}
