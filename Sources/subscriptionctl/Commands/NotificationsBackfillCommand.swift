import AppStore
import AppStoreServerAPI
import ArgumentParser
import Composition
import Foundation
import Intake
import Settings
import Store
import UseCases

/// `subscriptionctl notifications backfill --since DATE [--until DATE] [--app B] [--environment E] [--only-failures]`.
struct NotificationsBackfillCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backfill",
        abstract: "Fetch missed version 2 notifications from Apple's notification history into the inbox.",
        discussion: """
            Pages through Get Notification History (Apple keeps 180 days; sandbox notifications \
            are sent once and never retried, so this is how a missed one comes back). Every \
            notification is verified and checked like one posted to the intake, then stored; \
            ones already in the inbox count as duplicates. Each page is recorded as it is done, \
            so a backfill stopped by Ctrl-C or a crash resumes when run again with the same \
            options (without --until it keeps the end it started with). A running subscriptiond \
            processes what was stored. DATE is YYYY-MM-DD or an ISO 8601 time (UTC).

            Examples:
              subscriptionctl notifications backfill --since 2026-11-01
              subscriptionctl notifications backfill --since 2026-11-20 --environment Sandbox --only-failures
            """
    )

    @OptionGroup var options: GlobalOptions

    @Option(help: "Start of the window (YYYY-MM-DD or ISO 8601).")
    var since: String

    @Option(help: "End of the window (default: now).")
    var until: String?

    @Option(help: ArgumentHelp("The app (default: the only one with an API key).", valueName: "bundle-id"))
    var app: String?

    @Option(help: "Production or Sandbox.")
    var environment = "Production"

    @Flag(help: "Only notifications Apple failed to deliver.")
    var onlyFailures = false

    func run() async throws {
        let environment = try EnvironmentOption.parse(self.environment)
        let start = try DateOption.parse(since, name: "--since")
        let end = try until.map { try DateOption.parse($0, name: "--until") }
        guard start < (end ?? Date()) else { throw CommandFailure.usage("--since must be before --until") }
        try await CommandExecution.withDatabase(options) { context in
            try await APISession.with { session in
                let client = try session.client(app: app)
                let json = options.json
                let run = try await context.backfill(apps: session.settings.apps).run(
                    client: client, environment: environment, start: start, end: end, onlyFailures: onlyFailures,
                    onStart: { run in
                        if run.resumed && !json {
                            Output.line("resuming backfill \(run.id) after \(run.pages) page\(run.pages == 1 ? "" : "s")")
                        }
                    },
                    onPage: { page in
                        for refusal in page.refusals { Output.error("subscriptionctl: skipped a notification: \(refusal)") }
                        guard !json else { return }
                        let refused = page.refusals.count
                        Output.line(
                            "page \(page.run.pages): \(page.stored) stored, \(page.duplicates) already there\(refused > 0 ? ", \(refused) refused" : "")"
                        )
                    })
                if json {
                    try Output.json(
                        BackfillDocument(
                            run: run.id, pages: run.pages, stored: run.stored, duplicates: run.duplicates, refused: run.refused))
                } else {
                    Output.line(
                        "backfill \(run.id) done: \(run.pages) pages, \(run.stored) stored, \(run.duplicates) already in the inbox, \(run.refused) refused"
                    )
                }
            }
        }
    }
}

/// `notifications backfill --json`.
struct BackfillDocument: Encodable {
    let run: Int64
    let pages: Int
    let stored: Int
    let duplicates: Int
    let refused: Int
}

/// Dates given on the command line: `YYYY-MM-DD` (midnight UTC) or ISO 8601.
enum DateOption {
    static func parse(_ text: String, name: String) throws -> Date {
        let iso = ISO8601DateFormatter()
        if let date = iso.date(from: text) { return date }
        iso.formatOptions = [.withFullDate]
        if let date = iso.date(from: text) { return date }
        throw CommandFailure.usage("\(name) must be a date (YYYY-MM-DD) or an ISO 8601 time, got '\(text)'")
    }
}
