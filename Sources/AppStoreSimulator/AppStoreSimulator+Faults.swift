import NIOConcurrencyHelpers

extension AppStoreSimulator {
    /// Replaces the fault settings (rates, latency, hang limit) and restarts their seeded draws;
    /// failures queued by `failNext` stay queued.
    public func setFaults(_ settings: FaultSettings) {
        box.withLockedValue { $0.faults.replace(with: settings, defaultSeed: configuration.seed) }
    }

    /// The current fault settings.
    public var faults: FaultSettings {
        box.withLockedValue { $0.faults.settings }
    }

    /// Makes the next `count` verifyReceipt requests fail with `fault`, whatever the rates say.
    public func failNext(_ count: Int, with fault: Fault) {
        box.withLockedValue { $0.faults.failNext(count, with: fault) }
    }

    /// Removes queued `failNext` failures and sets the rates and latency to none.
    public func clearFaults() {
        box.withLockedValue {
            $0.faults.replace(with: .none, defaultSeed: configuration.seed)
            $0.faults.clearQueue()
        }
    }

    /// Requests served so far, per outcome.
    public func stats() -> SimulatorStats {
        box.withLockedValue { $0.stats }
    }

    /// Sets the counts back to zero.
    public func resetStats() {
        box.withLockedValue { $0.stats = SimulatorStats() }
    }

    /// Decides the fault and delay of one request (the server calls this first).
    func decideFault(forced: Fault?, extraLatencyMilliseconds: Double) -> FaultDecision {
        box.withLockedValue { $0.faults.decide(forced: forced, extraLatencyMilliseconds: extraLatencyMilliseconds) }
    }

    /// Counts one served request.
    func record(_ outcome: ServedOutcome, endpoint: VerifyEndpoint) {
        box.withLockedValue { $0.stats.record(outcome, endpoint: endpoint) }
    }

    /// Counts one App Store Server API request.
    func recordAPI(_ outcome: ServedOutcome) {
        box.withLockedValue { $0.stats.api[outcome.description, default: 0] += 1 }
    }
}
