import Foundation

/// How the simulator runs a Retention Messaging performance test (Apple's
/// `PerformanceTestConfig`); each value is clamped to a sane range.
public struct SimPerformanceTestConfig: Sendable, Hashable {
    /// Requests in flight at once (1...100).
    public var maxConcurrentRequests: Int
    /// Requests sent in all (1...10,000).
    public var totalRequests: Int
    /// The longest the whole test runs, in milliseconds (100...600,000): requests not sent
    /// by then fail.
    public var totalDurationMilliseconds: Int
    /// The longest a successful answer may take, in milliseconds (1...60,000); Apple's is
    /// about 700.
    public var responseTimeThresholdMilliseconds: Int
    /// The share of successful answers, in percent (0...100), the endpoint needs to pass.
    public var successRateThreshold: Int

    /// A configuration; the defaults are like Apple's (10 at once, 100 requests, 60 s, 700 ms, 95%).
    public init(
        maxConcurrentRequests: Int = 10, totalRequests: Int = 100, totalDurationMilliseconds: Int = 60_000,
        responseTimeThresholdMilliseconds: Int = 700, successRateThreshold: Int = 95
    ) {
        self.maxConcurrentRequests = min(max(maxConcurrentRequests, 1), 100)
        self.totalRequests = min(max(totalRequests, 1), 10_000)
        self.totalDurationMilliseconds = min(max(totalDurationMilliseconds, 100), 600_000)
        self.responseTimeThresholdMilliseconds = min(max(responseTimeThresholdMilliseconds, 1), 60_000)
        self.successRateThreshold = min(max(successRateThreshold, 0), 100)
    }

    /// Apple's `PerformanceTestConfig` JSON.
    var json: JSONValue {
        .object([
            ("maxConcurrentRequests", .int(maxConcurrentRequests)),
            ("totalRequests", .int(totalRequests)),
            ("totalDuration", .int(totalDurationMilliseconds)),
            ("responseTimeThreshold", .int(responseTimeThresholdMilliseconds)),
            ("successRateThreshold", .int(successRateThreshold)),
        ])
    }
}
