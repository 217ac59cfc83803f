/// A secret (shared secret, admin token) that never prints and compares in constant time.
public struct Secret: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    private let bytes: [UInt8]

    /// Wraps a secret value.
    public init(_ value: String) {
        self.bytes = Array(value.utf8)
    }

    /// Compares with a candidate in time that depends only on the lengths, not on where they differ.
    public func matches(_ candidate: some StringProtocol) -> Bool {
        ConstantTime.equals(bytes, Array(candidate.utf8))
    }

    /// True when the secret is the empty string.
    public var isEmpty: Bool { bytes.isEmpty }

    /// The secret itself, for sending it upstream (never for logging).
    public var revealed: String { String(decoding: bytes, as: UTF8.self) }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
}

/// Comparisons whose running time does not reveal the position of the first difference.
public enum ConstantTime {
    /// True when both byte sequences are equal; examines every byte of the longer one.
    public static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        let length = max(lhs.count, rhs.count)
        var difference = UInt8(truncatingIfNeeded: lhs.count ^ rhs.count) | (lhs.count == rhs.count ? 0 : 1)
        for index in 0..<length {
            let left = index < lhs.count ? lhs[index] : 0
            let right = index < rhs.count ? rhs[index] : 0
            difference |= left ^ right
        }
        return difference == 0
    }
}
