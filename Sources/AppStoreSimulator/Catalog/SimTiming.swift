/// Apple's timing rules, with the lengths tests may want to change.
public struct SimTiming: Sendable, Hashable {
    /// Billing grace period for subscriptions shorter than a month (Apple: 6 days).
    public var shortGracePeriodDays: Int
    /// Billing grace period for monthly and longer subscriptions (Apple: 16 days).
    public var gracePeriodDays: Int
    /// How long Apple retries a failed renewal (Apple: up to 60 days).
    public var billingRetryDays: Int
    /// Sandbox subscriptions renew at most this many times (APPSTORE.md: 5).
    public var sandboxMaxRenewals: Int
    /// How much faster sandbox time runs for lengths outside Apple's table (1 month ≈ 5 minutes).
    public var sandboxSpeedup: Double

    /// Apple's values.
    public init(
        shortGracePeriodDays: Int = 6,
        gracePeriodDays: Int = 16,
        billingRetryDays: Int = 60,
        sandboxMaxRenewals: Int = 5,
        sandboxSpeedup: Double = 8_640
    ) {
        self.shortGracePeriodDays = shortGracePeriodDays
        self.gracePeriodDays = gracePeriodDays
        self.billingRetryDays = billingRetryDays
        self.sandboxMaxRenewals = sandboxMaxRenewals
        self.sandboxSpeedup = sandboxSpeedup
    }
}
