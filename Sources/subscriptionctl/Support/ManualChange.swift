import Foundation
import SubscriptiondCore
import UseCases

/// What the commands that change data by hand (grants, unlink, delete) share.
enum ManualChange {
    /// The audit log's actor: `cli:<OS user>`.
    static var actor: String {
        "cli:" + (ProcessInfo.processInfo.environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "unknown")
    }

    /// A use case's refusal as the CLI's one line and exit code: 1 for what does not exist, 2 otherwise.
    static func refusal(_ error: UseCaseError) -> CommandFailure {
        switch error {
        case .unknownEntitlement(let message), .notFound(let message): .notFound(message)
        default: .usage(error.description)
        }
    }
}
