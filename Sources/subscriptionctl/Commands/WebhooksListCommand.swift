import ArgumentParser
import Composition
import Foundation
import Store
import Subscriptions
import UseCases

/// `subscriptionctl webhooks list [--state S] [--limit N]`.
struct WebhooksListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List outbound events, newest first.",
        discussion: """
            Examples:
              subscriptionctl webhooks list --state dead
              subscriptionctl webhooks list --state retrying --json | jq '.events[].last_error'
            """
    )

    @OptionGroup var options: GlobalOptions

    @Option(help: "Only this state: pending, delivered, retrying or dead.")
    var state: String?

    @Option(help: "At most this many (1 to 10000).")
    var limit = 50

    func validate() throws {
        if let state, WebhookEventState(rawValue: state) == nil {
            throw ValidationError("--state must be one of pending, delivered, retrying, dead; got '\(state)'")
        }
        guard (1...10_000).contains(limit) else { throw ValidationError("--limit must be from 1 to 10000") }
    }

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            let events = try await context.webhooks.list(state: state.flatMap(WebhookEventState.init(rawValue:)), limit: limit)
            if options.json {
                try Output.json(["events": events.map { WebhookEventSummaryDocument(summary: $0) }])
                return
            }
            guard !events.isEmpty else {
                Output.line("no webhook events match")
                return
            }
            let now = Date()
            var table = Table("ID", "EVENT", "STATE", "TYPE", "SUBJECT", "CREATED", "ATTEMPTS", "LAST ERROR")
            for summary in events {
                let event = summary.event
                table.append([
                    String(event.id), event.eventID, Style.state(summary.state.rawValue), event.type.rawValue,
                    event.originalTransactionID ?? "user " + event.appUserIDs.joined(separator: ","),
                    TimeText.withAge(event.createdAt, now: now), String(summary.attempts),
                    ErrorText.short(summary.lastError),
                ])
            }
            Output.line(table.render())
            if events.count == limit {
                Output.error("showing the newest \(limit); use --limit or --state for more")
            }
        }
    }
}
