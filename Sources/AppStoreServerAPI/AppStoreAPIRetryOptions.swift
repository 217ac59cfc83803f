import Foundation
import HTTPClient

/// How hard the client itself retries one call before reporting a retryable failure.
///
/// The bounds are small on purpose: the caller (worker, CLI) owns long-term retrying with
/// its own policy; these waits only smooth over a blip or one Retry-After.
public struct AppStoreAPIRetryOptions: Sendable, Hashable {
    /// Retries after 429 per call; each waits for Apple's Retry-After.
    public var rateLimitRetries: Int
    /// The longest Retry-After the client waits for itself; a later one is reported at once.
    public var maximumRetryAfterWait: Duration
    /// Retries after 5xx, timeouts and connection failures per call.
    public var upstreamRetries: Int
    /// The delays before those retries (``Backoff/appStoreAPICall``: 0.5 s doubling to 30 s).
    public var backoff: Backoff
    /// How long a signed token is reused (it lives 5 minutes).
    public var tokenReuse: TimeInterval

    /// Creates options; the defaults wait at most about a minute in all.
    public init(
        rateLimitRetries: Int = 3,
        maximumRetryAfterWait: Duration = .seconds(30),
        upstreamRetries: Int = 2,
        backoffBase: Duration = Backoff.appStoreAPICall.base,
        tokenReuse: TimeInterval = 240
    ) {
        self.rateLimitRetries = max(0, rateLimitRetries)
        self.maximumRetryAfterWait = maximumRetryAfterWait
        self.upstreamRetries = max(0, upstreamRetries)
        self.backoff = Backoff(base: backoffBase, maximum: Backoff.appStoreAPICall.maximum, jitter: Backoff.appStoreAPICall.jitter)
        self.tokenReuse = tokenReuse
    }

    /// The delay before retry number `retry` (1-based) after a 5xx or transport failure.
    func delay(beforeRetry retry: Int, random: Double = Double.random(in: 0...1)) -> Duration {
        .milliseconds(Int64((backoff.delay(afterFailure: retry, random: random) * 1000).rounded()))
    }
}

/// Apple's `Retry-After`: UNIX time in milliseconds; UNIX seconds and a delay in seconds
/// (the HTTP standard's form) are accepted too.
enum RetryAfter {
    /// When the next request is allowed, or `nil` when the header is absent or unreadable.
    static func date(from value: String?, now: Date) -> Date? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), let number = Double(text),
            number.isFinite, number >= 0, number < 1e16
        else { return nil }
        if number >= 1e11 { return Date(timeIntervalSince1970: number / 1000) }
        if number >= 1e9 { return Date(timeIntervalSince1970: number) }
        return now.addingTimeInterval(number)
    }
}
