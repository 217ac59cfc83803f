/// An inconsistency found in stored data (never a user error).
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, safe to show.
    public let message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { "store error: \(message)" }
}
