/// SplitMix64: a small, fast generator whose sequence depends only on its seed, so a seed
/// reproduces customers, scenario details and rate-based faults exactly.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// A generator for one named thing under a seed, independent of how many others exist.
    public init(seed: UInt64, name: String) {
        self.init(seed: seed ^ Self.fnv1a(name))
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform number in `range`.
    mutating func fraction(_ range: ClosedRange<Double>) -> Double {
        Double.random(in: range, using: &self)
    }

    /// FNV-1a: a stable string hash (Swift's `Hasher` is seeded per process).
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
