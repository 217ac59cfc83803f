import AppStore
import ArgumentParser
import Foundation
import Postgres
import Store
import SubscriptiondCore

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
        try await CommandExecution.withDatabase(options) { database in
            try await APISession.with(concurrency: concurrency) { session in
                let targets = try await Self.targets(all ? nil : originalTransactionIDs, apps: session.directory.bundleIDs, database: database)
                if !all, let missing = originalTransactionIDs.first(where: { id in !targets.contains { $0.id == id } }) {
                    throw CommandFailure.notFound("no subscription of an app with an API key has original_transaction_id \(missing); nothing was synced")
                }
                let progress = ProgressBar(total: targets.count, label: "syncing")
                progress.start()
                let failures = try await withThrowingTaskGroup(of: String?.self) { group in
                    var failures: [String] = []
                    var next = targets.makeIterator()
                    func add(_ target: Target?) {
                        guard let target, let client = session.directory.client(bundleID: target.bundleID) else { return }
                        group.addTask {
                            do {
                                let facts = try await AppleSubscriptionState.facts(
                                    transactionID: target.id, environment: target.environment, withHistory: true, client: client, logger: session.logger)
                                try await database.withTransaction { transaction in
                                    try FactStore.lockSubscriptions(of: facts, in: transaction)
                                    for batch in facts {
                                        try FactStore.apply(batch, receiptObservedAt: Date(), notificationID: nil, in: transaction)
                                    }
                                }
                                return nil
                            } catch {
                                return "\(target.id): \(error)"
                            }
                        }
                    }
                    for _ in 0..<concurrency { add(next.next()) }
                    while let outcome = try await group.next() {
                        progress.advance()
                        if let outcome { failures.append(outcome) }
                        add(next.next())
                    }
                    return failures
                }
                progress.finish()
                if options.json {
                    try Output.json(SyncDocument(synced: targets.count - failures.count, failed: failures))
                } else {
                    Output.line("synced \(targets.count - failures.count) of \(targets.count) subscription\(targets.count == 1 ? "" : "s")")
                    for failure in failures { Output.line("  failed: \(failure)") }
                }
                if !failures.isEmpty { throw CommandFailure.notFound("\(failures.count) subscription\(failures.count == 1 ? "" : "s") could not be synced") }
            }
        }
    }

    struct Target: Sendable {
        let id: String
        let bundleID: String
        let environment: AppStoreEnvironment
    }

    /// The stored subscriptions to sync (`ids` nil: all) of the apps that have an API key.
    static func targets(_ ids: [String]?, apps: [String], database: PostgresClient) async throws -> [Target] {
        let rows: [PostgresRow]
        if let ids {
            rows = try await database.query("""
                SELECT original_transaction_id, bundle_id, environment FROM subscriptions
                WHERE original_transaction_id = ANY(\(ids)::text[]) AND bundle_id = ANY(\(apps)::text[])
                ORDER BY original_transaction_id, environment
                """)
        } else {
            rows = try await database.query("""
                SELECT original_transaction_id, bundle_id, environment FROM subscriptions
                WHERE bundle_id = ANY(\(apps)::text[]) ORDER BY original_transaction_id, environment
                """)
        }
        return try rows.map { row in
            Target(id: try row.decode("original_transaction_id"), bundleID: try row.decode("bundle_id"),
                   environment: AppStoreEnvironment(rawValue: try row.decode("environment")) ?? .production)
        }
    }
}

/// `sync --json`.
struct SyncDocument: Encodable {
    let synced: Int
    let failed: [String]
}
