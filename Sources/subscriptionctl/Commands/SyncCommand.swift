import ArgumentParser
import Composition
import Foundation
import Settings
import Store
import UseCases

/// `subscriptionctl sync ORIGINAL_TRANSACTION_ID... | --all`.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Re-read subscriptions from the App Store Server API and apply what Apple says now.",
        discussion: """
            The version 2 twin of `revalidate`: for each subscription, Get All Subscription \
            Statuses and the transaction history, every signed item verified, applied like a \
            notification (so a missed or lost notification heals). --all takes every stored \
            subscription of the apps that have an API key. Requests stay under Apple's rate \
            limits. Exit 1 when any subscription could not be synced (each is listed).

            Examples:
              subscriptionctl sync 2000001024993299
              subscriptionctl sync --all --concurrency 8
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: ArgumentHelp("Original transaction ids.", valueName: "original-transaction-id"))
    var originalTransactionIDs: [String] = []

    @Flag(help: "Every stored subscription of the apps with an API key.")
    var all = false

    @Option(help: "Subscriptions synced at once (1 to 64).")
    var concurrency = 8

    func validate() throws {
        if all && !originalTransactionIDs.isEmpty { throw ValidationError("give original transaction ids or --all, not both") }
        if !all && originalTransactionIDs.isEmpty { throw ValidationError("give one or more original transaction ids, or --all") }
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be from 1 to 64") }
    }

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            try await APISession.with(concurrency: concurrency) { session in
                let sync = context.sync(
                    evidence: session.evidence, apps: session.settings.apps, concurrency: concurrency, logger: session.logger)
                let targets = try await sync.targets(all ? nil : originalTransactionIDs)
                if !all, let missing = originalTransactionIDs.first(where: { id in !targets.contains { $0.originalTransactionID == id } }) {
                    throw CommandFailure.notFound(
                        "no subscription of an app with an API key has original_transaction_id \(missing); nothing was synced")
                }
                let progress = ProgressBar(total: targets.count, label: "syncing")
                progress.start()
                let failures = try await sync.run(targets, onEach: { progress.advance() })
                progress.finish()
                if options.json {
                    try Output.json(SyncDocument(synced: targets.count - failures.count, failed: failures))
                } else {
                    Output.line("synced \(targets.count - failures.count) of \(targets.count) subscription\(targets.count == 1 ? "" : "s")")
                    for failure in failures { Output.line("  failed: \(failure)") }
                }
                if !failures.isEmpty {
                    throw CommandFailure.notFound("\(failures.count) subscription\(failures.count == 1 ? "" : "s") could not be synced")
                }
            }
        }
    }
}

/// `sync --json`.
struct SyncDocument: Encodable {
    let synced: Int
    let failed: [String]
}
