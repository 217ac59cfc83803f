import Access
import Composition
import Foundation
import UseCases

/// What the commands that change data by hand (grants, unlink, delete) share.
enum ManualChange {
    /// The operator at the terminal, named by the operating system user.
    static var principal: Principal {
        .cli(user: ProcessInfo.processInfo.environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "unknown")
    }

    /// The audit log's actor: `cli:<OS user>`.
    static var actor: String { principal.actor }

    /// The result of `change`, its use case's refusal turned into the CLI's one line and exit
    /// code: 1 for what does not exist and what a rule or Apple refused, 2 otherwise.
    static func refusing<Result>(_ change: () async throws -> Result) async throws -> Result {
        do {
            return try await change()
        } catch let error as UseCaseError {
            switch error {
            case .unknownEntitlement(let message), .notFound(let message): throw CommandFailure.notFound(message)
            case .ownedByOtherUser(let message), .signatureRejected(let message), .unavailable(let message), .receiptRejected(let message),
                .notEligible(let message), .unverifiedTransaction(let message), .forbidden(let message), .alreadyExists(let message):
                throw CommandFailure.refused(message)
            default: throw CommandFailure.usage(error.description)
            }
        }
    }
}
