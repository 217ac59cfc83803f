import ArgumentParser
import Composition
import ContractDocuments
import Foundation
import Store
import UseCases

/// `subscriptionctl notifications list [--state S] [--type T] [--bundle-id B] [--since TIME] [--limit N]`.
struct NotificationsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List notifications, newest first.",
        discussion: """
            Filters combine. --since takes an RFC 3339 time (2026-10-03T09:00:00Z) or a UTC date \
            (2026-10-03) and keeps notifications received at or after it.

            Examples:
              subscriptionctl notifications list --state dead
              subscriptionctl notifications list --type DID_FAIL_TO_RENEW --since 2026-10-01 --limit 200
              subscriptionctl notifications list --state retrying --json | jq '.notifications[].last_error'
            """
    )

    @OptionGroup var options: GlobalOptions

    @Option(help: "Only this state: pending, retrying, processed or dead.")
    var state: String?

    @Option(help: "Only this notification_type, e.g. DID_RENEW.")
    var type: String?

    @Option(help: "Only this app.")
    var bundleID: String?

    @Option(help: "Only notifications received at or after this time (RFC 3339 or YYYY-MM-DD, UTC).")
    var since: String?

    @Option(help: "At most this many (1 to 10000).")
    var limit = 50

    func validate() throws {
        if let state, InboxState(rawValue: state) == nil {
            throw ValidationError("--state must be one of pending, retrying, processed, dead; got '\(state)'")
        }
        if let since, RFC3339.parse(since) == nil {
            throw ValidationError("--since must be an RFC 3339 time (2026-10-03T09:00:00Z) or a date (2026-10-03); got '\(since)'")
        }
        guard (1...10_000).contains(limit) else { throw ValidationError("--limit must be from 1 to 10000") }
    }

    func run() async throws {
        let filter = NotificationFilter(
            state: state.flatMap(InboxState.init(rawValue:)), notificationType: type, bundleID: bundleID,
            receivedSince: since.flatMap(RFC3339.parse), limit: limit
        )
        try await CommandExecution.withDatabase(options) { context in
            let notifications = try await context.inbox.list(filter)
            if options.json {
                try Output.json(["notifications": notifications.map(NotificationDocument.init)])
                return
            }
            guard !notifications.isEmpty else {
                Output.line("no notifications match")
                return
            }
            let now = Date()
            var table = Table("ID", "STATE", "TYPE", "SUBSCRIPTION", "RECEIVED", "ATTEMPTS", "LAST ERROR")
            for notification in notifications {
                table.append([
                    String(notification.id), Style.state(notification.state), notification.kind,
                    notification.originalTransactionID ?? notification.appUserID.map { "user \($0)" } ?? "-",
                    TimeText.withAge(notification.receivedAt, now: now), String(notification.attempts),
                    ErrorText.short(notification.lastError),
                ])
            }
            Output.line(table.render())
            if notifications.count == limit {
                Output.error("showing the newest \(limit); use --limit or filters for more")
            }
        }
    }
}
