import ServiceSupport

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
