import ArgumentParser
import Composition
import Foundation
import Store
import UseCases

/// `subscriptionctl notifications show ID`.
struct NotificationsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one notification: its state, processing history and stored body.",
        discussion: """
            The body is printed as stored, with receipts (latest_receipt, receipt_data) replaced \
            by their length: the shared secret (password) is removed before a notification is \
            stored, so it never appears. A version 2 body shows its signed payload decoded \
            (header, payload, and the nested transaction and renewal info), never a signature. The history lists every attempt with \
            its outcome (processed, retry, dead) and error.

            Example:
              subscriptionctl notifications show 1842
              subscriptionctl notifications show 1842 --json | jq '.body.unified_receipt.latest_receipt_info[0]'
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The notification id (from `notifications list`).")
    var id: Int64

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            guard let detail = try await context.inbox.detail(id: id) else {
                throw CommandFailure.notFound("no notification with id \(id)")
            }
            let document = NotificationDetailDocument(detail: detail)
            if options.json {
                try Output.json(document)
                return
            }
            let summary = detail.summary
            let now = Date()
            Output.line(Style.heading("notification \(summary.id)") + "  \(summary.kind) · " + Style.state(summary.state))
            var fields = Fields()
            fields.append("source", "\(summary.source) · \(summary.environment) · \(summary.bundleID)")
            if let id = summary.originalTransactionID { fields.append("subscription", id) }
            if let user = summary.appUserID { fields.append("app user", user) }
            fields.append("received", TimeText.withAge(summary.receivedAt, now: now))
            if let processed = summary.processedAt { fields.append("processed", TimeText.withAge(processed, now: now)) }
            if summary.state == "pending" || summary.state == "retrying" {
                fields.append("next attempt", TimeText.withAge(summary.nextAttemptAt, now: now))
            }
            fields.append("attempts", String(summary.attempts))
            if let error = summary.lastError { fields.append("last error", error) }
            Output.line(fields.render())

            Output.line("")
            Output.line(Style.heading("history"))
            if detail.attempts.isEmpty {
                Output.line("no attempts yet")
            } else {
                var table = Table("ATTEMPT", "STARTED", "TOOK", "OUTCOME", "ERROR")
                for attempt in detail.attempts {
                    table.append([
                        String(attempt.attempt), TimeText.withAge(attempt.startedAt, now: now),
                        TimeText.duration(attempt.finishedAt.timeIntervalSince(attempt.startedAt)),
                        Style.outcome(attempt.outcome),
                        attempt.error ?? "-",
                    ])
                }
                Output.line(table.render())
            }

            Output.line("")
            Output.line(Style.heading("body"))
            Output.line(try Output.prettyJSON(document.body))
        }
    }
}
