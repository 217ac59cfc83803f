import ArgumentParser
import Composition
import Foundation
import Store
import UseCases

/// `subscriptionctl notifications discard ID... --reason TEXT`.
struct NotificationsDiscardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discard",
        abstract: "End notifications an operator judges bad as dead, with a reason.",
        discussion: """
            Each one becomes dead whatever its state, with "discarded by USER@HOST: REASON" as \
            its last error and as a 'discarded' entry in its attempts history; an attempt still \
            in flight cannot overwrite it. All named ids are discarded together or, when any id \
            does not exist, none is (exit 1). `notifications replay` brings them back.

            Example:
              subscriptionctl notifications discard 1842 --reason "test body sent by hand"
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: ArgumentHelp("Notification ids (from `notifications list`).", valueName: "id"))
    var ids: [Int64] = []

    @Option(help: "Why they are discarded (kept in the history).")
    var reason: String

    func validate() throws {
        if ids.isEmpty { throw ValidationError("give one or more notification ids") }
        if reason.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--reason must not be empty") }
        if reason.contains("\u{0}") { throw ValidationError("--reason must not contain a NUL character") }
    }

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            switch try await context.inbox.discard(ids: ids, reason: reason, actor: Self.actor()) {
            case .discarded(let discarded):
                if options.json {
                    try Output.json(DiscardDocument(discarded: discarded.count, ids: discarded))
                } else {
                    let count = discarded.count
                    Output.line(
                        "discarded \(count) notification\(count == 1 ? "" : "s"): dead now (\(NotificationsReplayCommand.abbreviated(discarded)))"
                    )
                }
            case .unknown(let unknown):
                let list = unknown.map(String.init).joined(separator: ", ")
                throw CommandFailure.notFound("no notification with id\(unknown.count == 1 ? "" : "s") \(list); nothing was discarded")
            }
        }
    }

    /// `user@host` of whoever runs the command (the sudo caller when run through sudo).
    static func actor() -> String {
        let environment = ProcessInfo.processInfo.environment
        let user = environment["SUDO_USER"] ?? environment["USER"] ?? environment["LOGNAME"] ?? "unknown"
        return "\(user)@\(ProcessInfo.processInfo.hostName)"
    }
}

/// `notifications discard --json`: `{"discarded": N, "ids": [...]}`.
struct DiscardDocument: Encodable {
    let discarded: Int
    let ids: [Int64]
}
