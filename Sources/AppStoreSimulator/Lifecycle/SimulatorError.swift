/// Why the simulator refused a request from its user.
public struct SimulatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A human sentence.
    public var description: String

    /// An error with `description`.
    public init(_ description: String) {
        self.description = description
    }
}
