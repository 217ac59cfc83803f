import Foundation

/// How Apple runs a performance test of the Get Retention Message endpoint
/// (`PerformanceTestConfig`); any field Apple leaves out is `nil`.
public struct RetentionPerformanceTestConfig: Sendable, Hashable, Codable {
    /// Requests in flight at once.
    public var maxConcurrentRequests: Int64?
    /// Requests sent in all.
    public var totalRequests: Int64?
    /// How long the test runs, in milliseconds from its start.
    public var totalDuration: Int64?
    /// The longest a successful answer may take, in milliseconds.
    public var responseTimeThreshold: Int64?
    /// The share of successful answers, in percent, the endpoint needs to pass.
    public var successRateThreshold: Int64?

    /// A configuration from its parts.
    public init(
        maxConcurrentRequests: Int64? = nil, totalRequests: Int64? = nil, totalDuration: Int64? = nil,
        responseTimeThreshold: Int64? = nil, successRateThreshold: Int64? = nil
    ) {
        self.maxConcurrentRequests = maxConcurrentRequests
        self.totalRequests = totalRequests
        self.totalDuration = totalDuration
        self.responseTimeThreshold = responseTimeThreshold
        self.successRateThreshold = successRateThreshold
    }
}

/// What Initiate Performance Test answers: the test's `requestId` and how it runs.
public struct RetentionPerformanceTestStart: Sendable, Hashable {
    /// The id to ask Get Performance Test Results with.
    public let requestID: String
    /// How Apple runs the test.
    public let config: RetentionPerformanceTestConfig

    /// A start from its parts.
    public init(requestID: String, config: RetentionPerformanceTestConfig) {
        self.requestID = requestID
        self.config = config
    }
}

/// A test's verdict (`PerformanceTestStatus`).
public enum RetentionPerformanceTestOutcome: String, Sendable, Hashable, CaseIterable {
    /// Still running.
    case pending = "PENDING"
    /// The endpoint met the success-rate threshold.
    case pass = "PASS"
    /// It did not.
    case fail = "FAIL"
}

/// Response times measured during a test, in milliseconds (`PerformanceTestResponseTimes`).
public struct RetentionPerformanceTestResponseTimes: Sendable, Hashable, Codable {
    /// The mean.
    public var average: Int64?
    /// The median.
    public var p50: Int64?
    /// The 90th percentile.
    public var p90: Int64?
    /// The 95th percentile.
    public var p95: Int64?
    /// The 99th percentile.
    public var p99: Int64?

    /// Times from their parts.
    public init(average: Int64? = nil, p50: Int64? = nil, p90: Int64? = nil, p95: Int64? = nil, p99: Int64? = nil) {
        self.average = average
        self.p50 = p50
        self.p90 = p90
        self.p95 = p95
        self.p99 = p99
    }
}

/// What Get Performance Test Results answers (`PerformanceTestResultResponse`).
///
/// `outcomeRaw` and the failure reasons keep Apple's spelling, so a new value never fails
/// decoding; `outcome` is `nil` for one this version does not know.
public struct RetentionPerformanceTestResult: Sendable, Hashable {
    /// How the test ran.
    public let config: RetentionPerformanceTestConfig
    /// The URL the test called.
    public let target: String?
    /// `result` as Apple sent it: `PENDING`, `PASS`, `FAIL`.
    public let outcomeRaw: String?
    /// The share of successful answers, in percent.
    public let successRate: Int64?
    /// Requests not answered yet.
    public let pending: Int64?
    /// The measured response times.
    public let responseTimes: RetentionPerformanceTestResponseTimes?
    /// Failures by Apple's reason (`TIMED_OUT`, `UNSUCCESSFUL_HTTP_RESPONSE_CODE`, …).
    public let failures: [String: Int64]

    /// A result from its parts.
    public init(
        config: RetentionPerformanceTestConfig, target: String?, outcomeRaw: String?, successRate: Int64?, pending: Int64?,
        responseTimes: RetentionPerformanceTestResponseTimes?, failures: [String: Int64]
    ) {
        self.config = config
        self.target = target
        self.outcomeRaw = outcomeRaw
        self.successRate = successRate
        self.pending = pending
        self.responseTimes = responseTimes
        self.failures = failures
    }

    /// The typed verdict, or `nil` for a value this version does not know.
    public var outcome: RetentionPerformanceTestOutcome? { outcomeRaw.flatMap(RetentionPerformanceTestOutcome.init(rawValue:)) }
}
