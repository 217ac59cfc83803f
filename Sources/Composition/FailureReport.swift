import AppStoreServerAPI
import HTTPClient
import Settings
import Store

/// Turns an error that ends a command into one line and the contract's exit code:
/// 1 not found / rule violated, 2 usage or configuration, 3 database unreachable.
public struct FailureReport: Sendable {
    /// The line to print (no secrets: every error here has a safe description).
    public let message: String
    /// The process exit code.
    public let exitCode: Int32

    /// Classifies an error.
    public init(_ error: any Error) {
        switch error {
        case let error as ConfigurationError:
            self.init(message: error.description, exitCode: 2)
        case let error as MigrationError:
            self.init(message: error.description, exitCode: 2)
        case _ where StoreFailure(error) == .misconfigured:
            self.init(message: StoreFailure.reason(error), exitCode: 2)
        case _ where StoreFailure(error) == .unreachable:
            self.init(message: StoreFailure.reason(error), exitCode: 3)
        case let error as CommandFailure:
            self.init(message: error.message, exitCode: error.exitCode)
        case let error as AppStoreAPIError:
            // A refused key is a configuration problem; everything else Apple said is an answer.
            if case .unauthorized = error {
                self.init(message: "App Store Server API: \(error)", exitCode: 2)
            } else if case .invalidPrivateKey = error {
                self.init(message: "App Store Server API: \(error)", exitCode: 2)
            } else {
                self.init(message: "App Store Server API: \(error)", exitCode: 1)
            }
        default:
            self.init(message: "\(error)", exitCode: 1)
        }
    }

    /// Creates a report directly.
    public init(message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }
}

/// An expected command failure with its exit code (not found → 1, usage → 2).
public struct CommandFailure: Error, Sendable, CustomStringConvertible {
    /// The one line to print.
    public let message: String
    /// The exit code.
    public let exitCode: Int32

    /// Something asked for does not exist.
    public static func notFound(_ message: String) -> CommandFailure { .init(message: message, exitCode: 1) }
    /// A rule or Apple refused what was asked, or Apple could not answer now.
    public static func refused(_ message: String) -> CommandFailure { .init(message: message, exitCode: 1) }
    /// The command was used wrongly or its input is invalid.
    public static func usage(_ message: String) -> CommandFailure { .init(message: message, exitCode: 2) }

    public var description: String { message }
}
