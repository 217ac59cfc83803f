import Foundation

/// When to try a failed notification again, and when to give up.
public struct RetryPolicy: Sendable {
    /// Delay before the second attempt; doubles each time.
    public var baseDelay: Duration
    /// The longest delay between attempts.
    public var maximumDelay: Duration
    /// Attempts before a healing failure is declared dead.
    public var maximumAttempts: Int
    /// Attempts for answers worth only a few tries (21002, unreadable answers).
    public var limitedAttempts: Int
    /// Random spread of each delay, as a fraction (0.2 = ±20%), so retries do not arrive in waves.
    public var jitter: Double

    /// Creates a policy; the defaults retry for about a day before giving up.
    public init(
        baseDelay: Duration = .seconds(2),
        maximumDelay: Duration = .seconds(30 * 60),
        maximumAttempts: Int = 60,
        limitedAttempts: Int = 3,
        jitter: Double = 0.2
    ) {
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts
        self.limitedAttempts = limitedAttempts
        self.jitter = jitter
    }

    /// The time of the next attempt after `attempt` failed, or nil when attempts are exhausted.
    public func nextAttempt(after attempt: Int, limited: Bool, now: Date, random: Double = Double.random(in: 0...1)) -> Date? {
        guard attempt < (limited ? limitedAttempts : maximumAttempts) else { return nil }
        let base = baseDelay.seconds * pow(2, Double(max(0, attempt - 1)))
        let capped = min(base, maximumDelay.seconds)
        let spread = capped * jitter * (random * 2 - 1)
        return now.addingTimeInterval(max(0.001, capped + spread))
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
