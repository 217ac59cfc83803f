/// Everything a simulator is made of: apps, products, the seed and Apple's timing rules.
public struct SimulatorConfiguration: Sendable {
    /// Apps with their shared secrets.
    public var apps: [SimApp]
    /// The products the apps sell.
    public var catalog: ProductCatalog
    /// Seeds ids, scenario details and rate-based faults: the same seed gives the same run.
    public var seed: UInt64
    /// Grace and billing-retry lengths, and sandbox acceleration.
    public var timing: SimTiming

    /// A configuration from its parts.
    public init(apps: [SimApp], catalog: ProductCatalog, seed: UInt64 = 42, timing: SimTiming = SimTiming()) {
        self.apps = apps
        self.catalog = catalog
        self.seed = seed
        self.timing = timing
    }

    /// The app with `bundleID`.
    public func app(_ bundleID: String) -> SimApp? {
        apps.first { $0.bundleID == bundleID }
    }
}
