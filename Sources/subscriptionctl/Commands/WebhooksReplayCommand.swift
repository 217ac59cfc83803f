import AppStore
import ArgumentParser
import Composition
import Foundation
import Store
import Subscriptions
import UseCases

/// `subscriptionctl webhooks replay ID... | --dead`.
struct WebhooksReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Send outbound events again: back to pending, due now.",
        discussion: """
            Any state can be replayed (a delivered event is sent again with the same event id; \
            receivers dedupe by it). All named ids are re-queued together or, when any id does \
            not exist, none is (exit 1). --dead re-queues every dead event.

            Examples:
              subscriptionctl webhooks replay 42 43
              subscriptionctl webhooks replay --dead
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: ArgumentHelp("Outbox ids (from `webhooks list`).", valueName: "id"))
    var ids: [Int64] = []

    @Flag(help: "Replay every dead event.")
    var dead = false

    func validate() throws {
        if dead && !ids.isEmpty { throw ValidationError("give event ids or --dead, not both") }
        if !dead && ids.isEmpty { throw ValidationError("give one or more event ids, or --dead") }
    }

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            let queries = context.webhooks
            let replayed: [Int64]
            if dead {
                replayed = try await queries.replayDead()
            } else {
                switch try await queries.replay(ids: ids) {
                case .requeued(let requeued):
                    replayed = requeued
                case .unknown(let unknown):
                    let list = unknown.map(String.init).joined(separator: ", ")
                    throw CommandFailure.notFound("no webhook event with id\(unknown.count == 1 ? "" : "s") \(list); nothing was replayed")
                }
            }
            if options.json {
                try Output.json(ReplayDocument(replayed: replayed.count, ids: replayed))
            } else if replayed.isEmpty {
                Output.line(dead ? "no dead webhook events: nothing to replay" : "nothing to replay")
            } else {
                Output.line(
                    "replayed \(replayed.count) webhook event\(replayed.count == 1 ? "" : "s"): pending now "
                        + "(\(NotificationsReplayCommand.abbreviated(replayed)))")
            }
        }
    }
}
