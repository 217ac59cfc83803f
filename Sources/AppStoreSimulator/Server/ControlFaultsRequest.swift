import Foundation

/// The body of `POST /control/faults`. Any of `rates`, `fault_rate`, `latency_*`,
/// `hang_seconds` or `seed` replaces the settings; `fail_next` queues failures:
///
/// ```json
/// {"rates": {"503": 0.05, "reset": 0.02}, "fault_rate": 0.1, "fault_kinds": ["21005", "500"],
///  "latency_ms": 20, "latency_uniform_ms": [0, 50], "latency_exponential_mean_ms": 30,
///  "hang_seconds": 5, "seed": 7, "fail_next": {"count": 3, "fault": "503"}}
/// ```
struct ControlFaultsRequest {
    var settings: FaultSettings?
    var failNext: (count: Int, fault: Fault)?

    init(json: [UInt8]) throws {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any] else {
            throw SimulatorError("body is not a JSON object")
        }
        let settingKeys = [
            "rates", "fault_rate", "latency_ms", "latency_uniform_ms", "latency_exponential_mean_ms", "hang_seconds", "seed",
        ]
        if settingKeys.contains(where: { object[$0] != nil }) {
            settings = try Self.settings(from: object)
        }
        if let next = object["fail_next"] as? [String: Any] {
            guard let count = (next["count"] as? NSNumber)?.intValue,
                let fault = Self.fault(next["fault"])
            else { throw SimulatorError("fail_next needs a count and a fault (\(Fault.allCases.map(\.rawValue)))") }
            failNext = (count, fault)
        }
    }

    func apply(to simulator: AppStoreSimulator) {
        if let settings { simulator.setFaults(settings) }
        if let failNext { simulator.failNext(failNext.count, with: failNext.fault) }
    }

    private static func settings(from object: [String: Any]) throws -> FaultSettings {
        var settings = FaultSettings.none
        if let rate = (object["fault_rate"] as? NSNumber)?.doubleValue {
            let kinds = try (object["fault_kinds"] as? [Any])?.map { value in
                guard let fault = fault(value) else { throw SimulatorError("unknown fault \(value)") }
                return fault
            }
            settings = .spread(rate: rate, over: kinds ?? Fault.quick)
        }
        for (key, value) in object["rates"] as? [String: Any] ?? [:] {
            guard let fault = Fault(rawValue: key), let rate = (value as? NSNumber)?.doubleValue else {
                throw SimulatorError("unknown fault or rate: \(key)")
            }
            settings.rates[fault] = rate
        }
        settings.fixedLatencyMilliseconds = (object["latency_ms"] as? NSNumber)?.doubleValue ?? 0
        if let bounds = (object["latency_uniform_ms"] as? [Any])?.compactMap({ ($0 as? NSNumber)?.doubleValue }), bounds.count == 2 {
            settings.latency = .uniform(minMilliseconds: bounds[0], maxMilliseconds: bounds[1])
        } else if let mean = (object["latency_exponential_mean_ms"] as? NSNumber)?.doubleValue {
            settings.latency = .exponential(meanMilliseconds: mean)
        }
        settings.hangSeconds = (object["hang_seconds"] as? NSNumber)?.doubleValue ?? settings.hangSeconds
        settings.seed = (object["seed"] as? NSNumber)?.uint64Value
        return settings
    }

    /// A fault from `"503"`, `503` or `"hang"`.
    private static func fault(_ value: Any?) -> Fault? {
        if let number = value as? NSNumber, !(value is String) { return Fault(rawValue: number.stringValue) }
        return (value as? String).flatMap(Fault.init(rawValue:))
    }

    /// The settings as JSON, for the control answers.
    static func describe(_ settings: FaultSettings) -> JSONValue {
        var latency: JSONValue = .null
        switch settings.latency {
        case .none: break
        case .uniform(let low, let high): latency = .array([.string("uniform"), .int(Int(low)), .int(Int(high))])
        case .exponential(let mean): latency = .array([.string("exponential"), .int(Int(mean))])
        }
        return .object([
            (
                "rates",
                .object(
                    Fault.allCases.compactMap { fault in
                        settings.rates[fault].map { (fault.rawValue, .string(String($0))) }
                    })
            ),
            ("latency_ms", .int(Int(settings.fixedLatencyMilliseconds))),
            ("latency_distribution", latency),
            ("hang_seconds", .string(String(settings.hangSeconds))),
        ])
    }
}
