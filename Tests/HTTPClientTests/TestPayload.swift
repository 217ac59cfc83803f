/// Deterministic bodies, so a test can tell a complete body from a truncated or shuffled one.
enum TestPayload {
    /// `count` bytes cycling through 0..<251; the prime period shows misplaced chunks.
    static func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8($0 % 251) }
    }
}
