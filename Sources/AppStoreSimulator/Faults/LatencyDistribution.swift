import Foundation

/// Extra delay before an answer, on top of the fixed latency.
public enum LatencyDistribution: Sendable, Hashable {
    /// No extra delay.
    case none
    /// Uniform between the two bounds, in milliseconds.
    case uniform(minMilliseconds: Double, maxMilliseconds: Double)
    /// Exponential with this mean, in milliseconds (long tail, like real networks).
    case exponential(meanMilliseconds: Double)

    /// One sample in milliseconds.
    func sample(using random: inout SeededRandom) -> Double {
        switch self {
        case .none:
            return 0
        case .uniform(let low, let high):
            return high > low ? Double.random(in: low...high, using: &random) : low
        case .exponential(let mean):
            let u = Double.random(in: Double.ulpOfOne..<1, using: &random)
            return -mean * log(u)
        }
    }
}
