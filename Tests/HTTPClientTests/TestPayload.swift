/// Deterministic bodies, so a test can tell a complete body from a truncated or shuffled one.
enum TestPayload {
    /// `count` bytes cycling through 0..<251; the prime period shows misplaced chunks.
    ///
    /// Built by copying whole periods: the test server builds bodies on its event loop,
    /// and a byte-by-byte loop in a debug build would stall that loop for seconds.
    static func bytes(_ count: Int) -> [UInt8] {
        let period = (0..<251).map { UInt8($0) }
        var result: [UInt8] = []
        result.reserveCapacity(count)
        while result.count < count {
            result.append(contentsOf: period.prefix(count - result.count))
        }
        return result
    }
}
