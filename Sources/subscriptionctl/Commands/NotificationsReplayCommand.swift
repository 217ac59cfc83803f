import ArgumentParser
import Composition
import Foundation
import Store
import UseCases

/// `subscriptionctl notifications replay ID... | --dead`.
struct NotificationsReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Put notifications back to pending so the worker processes them again.",
        discussion: """
            Each one becomes pending and due now; its attempt count and history are kept. All \
            named ids are re-queued together or, when any id does not exist, none is (exit 1, \
            naming the unknown ids). --dead re-queues every dead notification in one statement. \
            Processing is idempotent, so replaying a processed notification is harmless.

            Examples:
              subscriptionctl notifications replay 1842 1843
              subscriptionctl notifications replay --dead
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: ArgumentHelp("Notification ids (from `notifications list`).", valueName: "id"))
    var ids: [Int64] = []

    @Flag(help: "Replay every dead notification.")
    var dead = false

    func validate() throws {
        if dead && !ids.isEmpty { throw ValidationError("give notification ids or --dead, not both") }
        if !dead && ids.isEmpty { throw ValidationError("give one or more notification ids, or --dead") }
    }

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            let inbox = context.inbox
            let replayed: [Int64]
            if dead {
                replayed = try await inbox.replayDead()
            } else {
                switch try await inbox.replay(ids: ids) {
                case .requeued(let requeued):
                    replayed = requeued
                case .unknown(let unknown):
                    let list = unknown.map(String.init).joined(separator: ", ")
                    throw CommandFailure.notFound("no notification with id\(unknown.count == 1 ? "" : "s") \(list); nothing was replayed")
                }
            }
            if options.json {
                try Output.json(ReplayDocument(replayed: replayed.count, ids: replayed))
            } else if replayed.isEmpty {
                Output.line(dead ? "no dead notifications: nothing to replay" : "nothing to replay")
            } else {
                Output.line(
                    "replayed \(replayed.count) notification\(replayed.count == 1 ? "" : "s"): pending now (\(Self.abbreviated(replayed)))")
            }
        }
    }

    /// `1, 2, 3` or `1, 2, … 90 (90 in all)`.
    static func abbreviated(_ ids: [Int64]) -> String {
        let text = ids.map(String.init)
        guard text.count > 10 else { return "id\(text.count == 1 ? "" : "s") " + text.joined(separator: ", ") }
        return "ids " + text.prefix(8).joined(separator: ", ") + ", … " + (text.last ?? "")
    }
}

/// `notifications replay --json`: `{"replayed": N, "ids": [...]}`.
struct ReplayDocument: Encodable {
    let replayed: Int
    let ids: [Int64]
}
