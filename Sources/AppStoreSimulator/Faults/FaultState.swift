/// What one request gets: a delay and maybe a fault.
struct FaultDecision: Sendable, Hashable {
    var latencyMilliseconds: Double
    var fault: Fault?
    var hangSeconds: Double
}

/// The fault machinery's mutable part: settings, the seeded draws, and "fail the next N".
struct FaultState: Sendable {
    private(set) var settings: FaultSettings
    private var random: SeededRandom
    private var queue: [(fault: Fault, count: Int)] = []

    init(settings: FaultSettings, defaultSeed: UInt64) {
        self.settings = settings
        self.random = SeededRandom(seed: settings.seed ?? defaultSeed, name: "faults")
    }

    /// Replaces the settings and restarts the draws, so a seed reproduces the same faults;
    /// queued "fail the next N" failures stay.
    mutating func replace(with settings: FaultSettings, defaultSeed: UInt64) {
        self.settings = settings
        self.random = SeededRandom(seed: settings.seed ?? defaultSeed, name: "faults")
    }

    /// Makes the next `count` requests fail with `fault`, after any already queued.
    mutating func failNext(_ count: Int, with fault: Fault) {
        if count > 0 { queue.append((fault, count)) }
    }

    /// Forgets queued failures.
    mutating func clearQueue() {
        queue.removeAll()
    }

    /// Decides one request. A forced fault (request header) wins, then the queue, then the
    /// rates; every request draws the same number of random values so outcomes stay reproducible.
    mutating func decide(forced: Fault?, extraLatencyMilliseconds: Double) -> FaultDecision {
        let draw = Double.random(in: 0..<1, using: &random)
        let latency = settings.fixedLatencyMilliseconds + settings.latency.sample(using: &random) + extraLatencyMilliseconds
        var fault = forced
        if fault == nil, !queue.isEmpty {
            fault = queue[0].fault
            queue[0].count -= 1
            if queue[0].count == 0 { queue.removeFirst() }
        }
        if fault == nil {
            var threshold = 0.0
            for candidate in Fault.allCases {
                threshold += settings.rates[candidate] ?? 0
                if draw < threshold {
                    fault = candidate
                    break
                }
            }
        }
        return FaultDecision(latencyMilliseconds: max(0, latency), fault: fault, hangSeconds: settings.hangSeconds)
    }
}
