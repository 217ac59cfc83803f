import Foundation
import HTTPClient

/// When to try a failed notification again, and when to give up.
public struct RetryPolicy: Sendable {
    /// The delays between attempts.
    public var backoff: Backoff
    /// Attempts before a healing failure is declared dead.
    public var maximumAttempts: Int
    /// Attempts for answers worth only a few tries (21002, unreadable answers).
    public var limitedAttempts: Int

    /// Creates a policy; the defaults (``Backoff/notifications``, 60 attempts) retry for
    /// about a day before giving up.
    public init(backoff: Backoff = .notifications, maximumAttempts: Int = 60, limitedAttempts: Int = 3) {
        self.backoff = backoff
        self.maximumAttempts = maximumAttempts
        self.limitedAttempts = limitedAttempts
    }

    /// A policy with its own delays: `baseDelay` doubling to `maximumDelay` (tests shorten them).
    public init(
        baseDelay: Duration, maximumDelay: Duration = Backoff.notifications.maximum, maximumAttempts: Int = 60,
        limitedAttempts: Int = 3, jitter: Double = 0.2
    ) {
        self.init(
            backoff: Backoff(base: baseDelay, maximum: maximumDelay, jitter: jitter), maximumAttempts: maximumAttempts,
            limitedAttempts: limitedAttempts)
    }

    /// The time of the next attempt after `attempt` failed, or nil when attempts are exhausted.
    public func nextAttempt(after attempt: Int, limited: Bool, now: Date, random: Double = Double.random(in: 0...1)) -> Date? {
        guard attempt < (limited ? limitedAttempts : maximumAttempts) else { return nil }
        return now.addingTimeInterval(backoff.delay(afterFailure: attempt, random: random))
    }
}
