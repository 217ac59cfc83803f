import AppStoreSimulator
import ArgumentParser
import Foundation

/// Faults the verifyReceipt server injects, at seeded random.
struct FaultOptions: ParsableArguments {
    @Option(help: "Share of verifyReceipt requests that fail, spread over --fault-kinds.")
    var faultRate: Double = 0

    @Option(help: "Faults --fault-rate spreads over, comma-separated: 21005,21100,500,503,hang,reset.")
    var faultKinds = Fault.quick.map(\.rawValue).joined(separator: ",")

    @Option(name: .customLong("fault"), help: "One fault's own rate, KIND=RATE (repeatable), e.g. --fault hang=0.01.")
    var faults: [String] = []

    @Option(help: "Delay added to every answer, in milliseconds.")
    var latencyMs: Double = 0

    @Option(help: "Extra uniform random delay, MIN,MAX in milliseconds.")
    var latencyUniformMs: String?

    @Option(help: "Extra exponential random delay with this mean, in milliseconds.")
    var latencyExponentialMeanMs: Double?

    @Option(help: "How long a hang holds the connection before resetting it, in seconds.")
    var hangSeconds: Double = 30

    @Option(help: "Seed of the fault draws (default: --seed).")
    var faultSeed: UInt64?

    /// The settings these options describe.
    func settings() throws -> FaultSettings {
        let kinds = try faultKinds.split(separator: ",").map { try Self.fault(String($0)) }
        var settings = FaultSettings.spread(rate: faultRate, over: kinds, seed: faultSeed)
        for pair in faults {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let rate = Double(parts[1]) else {
                throw ValidationError("--fault expects KIND=RATE, got \(pair)")
            }
            settings.rates[try Self.fault(parts[0]), default: 0] += rate
        }
        settings.fixedLatencyMilliseconds = latencyMs
        if let bounds = latencyUniformMs?.split(separator: ",").compactMap({ Double($0) }), bounds.count == 2 {
            settings.latency = .uniform(minMilliseconds: bounds[0], maxMilliseconds: bounds[1])
        } else if let mean = latencyExponentialMeanMs {
            settings.latency = .exponential(meanMilliseconds: mean)
        }
        settings.hangSeconds = hangSeconds
        return settings
    }

    private static func fault(_ text: String) throws -> Fault {
        guard let fault = Fault(rawValue: text.trimmingCharacters(in: .whitespaces)) else {
            throw ValidationError("unknown fault \(text); use one of \(Fault.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return fault
    }
}
