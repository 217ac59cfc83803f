/// Where a transaction fact came from; both are Apple's verified word.
public enum FactSource: String, Sendable, Hashable, Codable, Comparable {
    /// A verifyReceipt answer.
    case v1
    /// A signed transaction (JWS) that verified to a configured root.
    case v2

    public static func < (lhs: FactSource, rhs: FactSource) -> Bool { lhs.rawValue < rhs.rawValue }
}
