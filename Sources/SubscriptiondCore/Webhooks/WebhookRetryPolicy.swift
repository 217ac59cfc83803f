import Foundation

/// When a failed delivery is tried again: exponential backoff with jitter, until the event
/// is older than `giveUpAfter` (3 days), then it is `dead`.
public struct WebhookRetryPolicy: Sendable {
    /// Delay after the first failure; doubles each time.
    public var baseDelay: Duration
    /// The longest delay between attempts.
    public var maximumDelay: Duration
    /// How long after the event's creation delivery keeps being tried.
    public var giveUpAfter: Duration
    /// Random spread of each delay, as a fraction (0.2 = ±20%).
    public var jitter: Double

    /// Creates a policy; the defaults try for 3 days, at most an hour apart.
    public init(baseDelay: Duration = .seconds(10), maximumDelay: Duration = .seconds(3_600),
                giveUpAfter: Duration = .seconds(3 * 24 * 3_600), jitter: Double = 0.2) {
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.giveUpAfter = giveUpAfter
        self.jitter = jitter
    }

    /// The next attempt after attempt number `attempt` failed, or nil when it would fall
    /// past the event's deadline.
    public func nextAttempt(after attempt: Int, createdAt: Date, now: Date, random: Double = Double.random(in: 0...1)) -> Date? {
        let exponent = Double(min(max(0, attempt - 1), 40))
        let capped = min(baseDelay.seconds * pow(2, exponent), maximumDelay.seconds)
        let spread = capped * jitter * (min(1, max(0, random)) * 2 - 1)
        let next = now.addingTimeInterval(max(0.001, capped + spread))
        return next <= createdAt.addingTimeInterval(giveUpAfter.seconds) ? next : nil
    }
}
