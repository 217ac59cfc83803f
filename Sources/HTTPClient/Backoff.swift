import Foundation

/// Exponential backoff for calls that are tried again: the delay before the next try
/// doubles from `base` after each failure, up to `maximum`, spread by ±`jitter` so retries
/// do not arrive in waves. The one backoff of the process, with a named configuration per
/// caller (notifications, webhook deliveries, one App Store Server API call).
public struct Backoff: Sendable, Hashable {
    /// The delay after the first failure.
    public var base: Duration
    /// The longest delay.
    public var maximum: Duration
    /// Random spread of each delay, as a fraction (0.2 = ±20%).
    public var jitter: Double

    public init(base: Duration, maximum: Duration, jitter: Double = 0.2) {
        self.base = base
        self.maximum = maximum
        self.jitter = jitter
    }

    /// The worker's notifications: 2 s doubling to 30 minutes.
    public static let notifications = Backoff(base: .seconds(2), maximum: .seconds(30 * 60))
    /// Webhook deliveries: 10 s doubling to an hour.
    public static let webhooks = Backoff(base: .seconds(10), maximum: .seconds(3_600))
    /// One App Store Server API call's own retries after a 5xx or transport failure: 0.5 s doubling to 30 s.
    public static let appStoreAPICall = Backoff(base: .milliseconds(500), maximum: .seconds(30))

    /// Seconds to wait after failure number `failure` (1-based; at least a millisecond).
    /// `random` is a draw from 0...1 (tests pin it).
    public func delay(afterFailure failure: Int, random: Double = Double.random(in: 0...1)) -> TimeInterval {
        // 2^40 times any base is past any maximum: the cap keeps the power finite.
        let exponent = Double(min(max(0, failure - 1), 40))
        let capped = min(base.seconds * pow(2, exponent), maximum.seconds)
        let spread = capped * jitter * (min(1, max(0, random)) * 2 - 1)
        return max(0.001, capped + spread)
    }
}
