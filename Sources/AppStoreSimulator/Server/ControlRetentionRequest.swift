import Foundation

/// The body of `POST /control/retention`: how uploads are reviewed and how performance tests
/// run. Each key given replaces that setting; the others stay.
///
/// ```json
/// {"approve_after_ms": 0, "performance_test": {"max_concurrent_requests": 10, "total_requests": 100,
///  "total_duration_ms": 60000, "response_time_threshold_ms": 700, "success_rate_threshold": 95}}
/// ```
///
/// `"approve_after_ms": null` (or `"manual"`) leaves uploads `PENDING` until
/// `POST /control/retention/review` decides them.
struct ControlRetentionRequest {
    var review: RetentionReview?
    var performanceTest: [String: Any]?

    init(json: [UInt8]) throws {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any] else {
            throw SimulatorError("body is not a JSON object")
        }
        if let value = object["approve_after_ms"] {
            if value is NSNull || value as? String == "manual" {
                review = .manual
            } else if let milliseconds = (value as? NSNumber)?.doubleValue, milliseconds.isFinite, milliseconds >= 0 {
                review = .approveAfter(milliseconds / 1_000)
            } else {
                throw SimulatorError("approve_after_ms is milliseconds (0 or more), null or \"manual\"")
            }
        }
        if let value = object["performance_test"] {
            guard let test = value as? [String: Any] else { throw SimulatorError("performance_test is an object") }
            let known = Set(Self.performanceTestKeys)
            if let unknown = test.keys.first(where: { !known.contains($0) }) {
                throw SimulatorError("unknown performance_test key \(unknown) (known: \(Self.performanceTestKeys.joined(separator: ", ")))")
            }
            guard test.values.allSatisfy({ ($0 as? NSNumber).map { !($0 is Bool) } ?? false }) else {
                throw SimulatorError("performance_test values are numbers")
            }
            performanceTest = test
        }
    }

    static let performanceTestKeys = [
        "max_concurrent_requests", "total_requests", "total_duration_ms", "response_time_threshold_ms", "success_rate_threshold",
    ]

    func apply(to simulator: AppStoreSimulator) {
        if let review { simulator.setRetentionReview(review) }
        if let test = performanceTest {
            let current = simulator.performanceTestConfig
            func value(_ key: String, _ fallback: Int) -> Int { (test[key] as? NSNumber)?.intValue ?? fallback }
            simulator.setPerformanceTestConfig(
                SimPerformanceTestConfig(
                    maxConcurrentRequests: value("max_concurrent_requests", current.maxConcurrentRequests),
                    totalRequests: value("total_requests", current.totalRequests),
                    totalDurationMilliseconds: value("total_duration_ms", current.totalDurationMilliseconds),
                    responseTimeThresholdMilliseconds: value("response_time_threshold_ms", current.responseTimeThresholdMilliseconds),
                    successRateThreshold: value("success_rate_threshold", current.successRateThreshold)))
        }
    }

    /// What `GET /control/retention` shows.
    static func describe(_ simulator: AppStoreSimulator) -> JSONValue {
        let approveAfter: JSONValue =
            switch simulator.retentionReview {
            case .manual: .null
            case .approveAfter(let seconds): .int(Int((seconds * 1_000).rounded()))
            }
        let config = simulator.performanceTestConfig
        return .object([
            ("approve_after_ms", approveAfter),
            (
                "performance_test",
                .object([
                    ("max_concurrent_requests", .int(config.maxConcurrentRequests)), ("total_requests", .int(config.totalRequests)),
                    ("total_duration_ms", .int(config.totalDurationMilliseconds)),
                    ("response_time_threshold_ms", .int(config.responseTimeThresholdMilliseconds)),
                    ("success_rate_threshold", .int(config.successRateThreshold)),
                ])
            ),
        ])
    }
}
