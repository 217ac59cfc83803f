/// A missing, malformed or contradictory setting; its description is the one line
/// printed before the process exits.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The environment variable (or flag) at fault.
    public let setting: String
    /// What is wrong with it, as a sentence fragment.
    public let problem: String

    /// Creates an error about one setting.
    public init(_ setting: String, _ problem: String) {
        self.setting = setting
        self.problem = problem
    }

    public var description: String { "configuration error: \(setting) \(problem)" }
}
