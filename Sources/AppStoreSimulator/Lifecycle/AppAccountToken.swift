/// Deterministic `appAccountToken`s: lower-case UUIDs drawn from the seed and a customer's name.
enum AppAccountToken {
    /// About half the customers get a token; the same seed and name always give the same one.
    static func draw(for name: String, seed: UInt64) -> String? {
        var random = SeededRandom(seed: seed, name: "app-account-token-" + name)
        guard random.next() % 2 == 0 else { return nil }
        return uuid(random.next(), random.next())
    }

    /// A version-4-shaped UUID from 128 bits.
    static func uuid(_ high: UInt64, _ low: UInt64) -> String {
        let high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let hex = hex16(high) + hex16(low)
        let chars = Array(hex)
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(chars[$0]) }
        return parts.joined(separator: "-")
    }

    private static func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }
}
