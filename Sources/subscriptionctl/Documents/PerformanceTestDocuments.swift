import AppStoreServerAPI

/// `retention performance-test start --json`.
struct PerformanceTestStartDocument: Encodable {
    let requestID: String
    let config: RetentionPerformanceTestConfig

    enum CodingKeys: String, CodingKey {
        case requestID = "request_id", config
    }
}

/// `retention performance-test result`: Apple's verdict and figures, as JSON or for people.
struct PerformanceTestResultDocument: Encodable {
    let requestID: String
    let result: String?
    let target: String?
    let successRate: Int64?
    let pending: Int64?
    let config: RetentionPerformanceTestConfig
    let responseTimes: RetentionPerformanceTestResponseTimes?
    let failures: [String: Int64]

    init(requestID: String, _ answer: RetentionPerformanceTestResult) {
        self.requestID = requestID
        result = answer.outcomeRaw
        target = answer.target
        successRate = answer.successRate
        pending = answer.pending
        config = answer.config
        responseTimes = answer.responseTimes
        failures = answer.failures
    }

    enum CodingKeys: String, CodingKey {
        case requestID = "request_id", result, target, successRate = "success_rate", pending, config, responseTimes = "response_times"
        case failures
    }

    /// `PASS`, `FAIL` or `PENDING` on the first line, then the figures.
    static func text(requestID: String, _ answer: RetentionPerformanceTestResult) -> String {
        func number(_ value: Int64?) -> String { value.map(String.init) ?? "?" }
        let verdict = answer.outcomeRaw ?? "unknown"
        var fields = Fields()
        fields.append("test", requestID + (answer.target.map { " against \($0)" } ?? ""))
        fields.append(
            "success rate",
            "\(number(answer.successRate))% (needs \(number(answer.config.successRateThreshold))% within \(number(answer.config.responseTimeThreshold)) ms)"
        )
        if let pending = answer.pending, pending > 0 { fields.append("pending", "\(pending) requests") }
        if let times = answer.responseTimes {
            fields.append(
                "response ms",
                "average \(number(times.average)), p50 \(number(times.p50)), p90 \(number(times.p90)), p95 \(number(times.p95)), p99 \(number(times.p99))"
            )
        }
        let failures = answer.failures.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        fields.append("failures", failures.isEmpty ? "none" : failures.joined(separator: ", "))
        let painted =
            switch answer.outcome {
            case .pass?: Style.paint(verdict, "32")
            case .fail?: Style.paint(verdict, "1;31")
            default: Style.paint(verdict, "33")
            }
        return painted + "\n" + fields.render()
    }
}
