/// Why intake refuses a body before anything is stored; the HTTP edge answers 400 for
/// `malformed` and 401 for `unauthorized`, with `message`.
public struct IntakeRefusal: Error, Sendable, Equatable {
    /// What is wrong.
    public enum Kind: Sendable, Equatable {
        /// The body is not a notification we can read (400).
        case malformed
        /// The sender did not prove it is Apple for a configured app (401).
        case unauthorized
    }

    public let kind: Kind
    /// A sentence safe to show: never a secret or a receipt.
    public let message: String

    /// A body that cannot be read.
    public static func malformed(_ message: String) -> IntakeRefusal { IntakeRefusal(kind: .malformed, message: message) }
    /// A body whose sender is not authenticated.
    public static func unauthorized(_ message: String) -> IntakeRefusal { IntakeRefusal(kind: .unauthorized, message: message) }
}
