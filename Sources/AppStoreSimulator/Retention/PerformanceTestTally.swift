import Foundation

/// The figures of a performance test, worked out from its outcomes as Apple reports them:
/// success rate over every request of the test, the verdict against the threshold once the
/// test is over, response-time percentiles (nearest rank) and failures by reason.
struct PerformanceTestTally: Sendable, Hashable {
    let config: SimPerformanceTestConfig
    let outcomes: [RealtimeRequestOutcome]
    let finished: Bool

    /// Successful requests.
    var successes: Int { outcomes.filter { $0.failure == nil }.count }

    /// Percent of the test's requests that succeeded, rounded down (of those finished while it runs).
    var successRate: Int {
        let total = finished ? config.totalRequests : outcomes.count
        return total == 0 ? 0 : successes * 100 / total
    }

    /// `PENDING` while it runs, then `PASS` or `FAIL`.
    var result: SimPerformanceTestResult {
        guard finished else { return .pending }
        return successRate >= config.successRateThreshold ? .pass : .fail
    }

    /// Requests without an outcome yet.
    var pending: Int { finished ? 0 : max(0, config.totalRequests - outcomes.count) }

    /// Failures by Apple's reason.
    var failures: [String: Int] {
        outcomes.reduce(into: [:]) { counts, outcome in
            if let failure = outcome.failure { counts[failure, default: 0] += 1 }
        }
    }

    /// The mean response time in milliseconds (0 with none measured).
    var average: Int64 {
        let times = measured
        return times.isEmpty ? 0 : times.reduce(0, +) / Int64(times.count)
    }

    /// The nearest-rank `percent` percentile of the response times (0 with none measured).
    func percentile(_ percent: Int) -> Int64 {
        let times = measured.sorted()
        guard !times.isEmpty else { return 0 }
        let rank = (percent * times.count + 99) / 100
        return times[min(max(rank, 1), times.count) - 1]
    }

    private var measured: [Int64] { outcomes.compactMap(\.milliseconds) }

    /// Apple's `PerformanceTestResultResponse` JSON for a test that called `target`.
    func json(target: String) -> JSONValue {
        .object([
            ("config", config.json),
            ("target", .string(target)),
            ("result", .string(result.rawValue)),
            ("successRate", .int(successRate)),
            ("numPending", .int(pending)),
            (
                "responseTimes",
                .object([
                    ("average", .int(Int(average))), ("p50", .int(Int(percentile(50)))), ("p90", .int(Int(percentile(90)))),
                    ("p95", .int(Int(percentile(95)))), ("p99", .int(Int(percentile(99)))),
                ])
            ),
            ("failures", .object(failures.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
        ])
    }
}

/// Apple's `PerformanceTestStatus`.
enum SimPerformanceTestResult: String, Sendable, Hashable {
    case pending = "PENDING"
    case pass = "PASS"
    case fail = "FAIL"
}
