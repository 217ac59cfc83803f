/// How the verifyReceipt server misbehaves: fault rates, latency and the hang limit.
public struct FaultSettings: Sendable, Hashable {
    /// The chance of each fault per request; their sum should stay at or below 1.
    public var rates: [Fault: Double]
    /// Delay added to every answer, in milliseconds.
    public var fixedLatencyMilliseconds: Double
    /// Random delay added on top of the fixed one.
    public var latency: LatencyDistribution
    /// How long a hang lasts before the connection is reset, in seconds.
    public var hangSeconds: Double
    /// Seeds the draws; `nil` uses the simulator's seed. Setting faults restarts the sequence.
    public var seed: UInt64?

    /// Settings from their parts; the defaults inject nothing.
    public init(
        rates: [Fault: Double] = [:],
        fixedLatencyMilliseconds: Double = 0,
        latency: LatencyDistribution = .none,
        hangSeconds: Double = 30,
        seed: UInt64? = nil
    ) {
        self.rates = rates
        self.fixedLatencyMilliseconds = fixedLatencyMilliseconds
        self.latency = latency
        self.hangSeconds = hangSeconds
        self.seed = seed
    }

    /// No faults, no latency.
    public static let none = FaultSettings()

    /// `rate` spread evenly over `faults` (by default every fault but `hang`).
    public static func spread(rate: Double, over faults: [Fault] = Fault.quick, seed: UInt64? = nil) -> FaultSettings {
        let share = faults.isEmpty ? 0 : rate / Double(faults.count)
        return FaultSettings(rates: Dictionary(faults.map { ($0, share) }, uniquingKeysWith: +), seed: seed)
    }
}
