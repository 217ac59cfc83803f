import Foundation
import HTTPClient

/// When a failed delivery is tried again: ``Backoff/webhooks`` until `giveUpAfter` (3 days)
/// has passed since the event's retry window began (its creation, or its latest replay), then
/// it is `dead`.
public struct WebhookRetryPolicy: Sendable {
    /// The delays between attempts.
    public var backoff: Backoff
    /// How long after the retry window began delivery keeps being tried.
    public var giveUpAfter: Duration

    /// Creates a policy; the defaults try for 3 days, at most an hour apart.
    public init(backoff: Backoff = .webhooks, giveUpAfter: Duration = .seconds(3 * 24 * 3_600)) {
        self.backoff = backoff
        self.giveUpAfter = giveUpAfter
    }

    /// A policy with its own delays: `baseDelay` doubling to `maximumDelay` (tests shorten them).
    public init(
        baseDelay: Duration, maximumDelay: Duration = Backoff.webhooks.maximum,
        giveUpAfter: Duration = .seconds(3 * 24 * 3_600), jitter: Double = 0.2
    ) {
        self.init(backoff: Backoff(base: baseDelay, maximum: maximumDelay, jitter: jitter), giveUpAfter: giveUpAfter)
    }

    /// The next attempt after attempt number `attempt` failed, or nil when it would fall
    /// past the deadline of the window that began at `windowStart`.
    public func nextAttempt(after attempt: Int, windowStart: Date, now: Date, random: Double = Double.random(in: 0...1)) -> Date? {
        let next = now.addingTimeInterval(backoff.delay(afterFailure: attempt, random: random))
        return next <= windowStart.addingTimeInterval(giveUpAfter.seconds) ? next : nil
    }
}
