import AppStore
import ArgumentParser
import Composition
import Foundation
import Store
import UseCases

/// `subscriptionctl purge --environment Xcode [--dry-run]`.
struct PurgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Remove every StoreKit Testing in Xcode purchase.",
        discussion: """
            Deletes the purchases stored with the environment Xcode (POST /v1/transactions of \
            an app with xcode_certificate_file): their transactions, subscriptions, renewal \
            info, links, status events and webhook events, in one transaction. Nothing of \
            Production or Sandbox is touched; only Xcode can be purged, because those purchases \
            exist nowhere but here. --dry-run counts without deleting.

            Examples:
              subscriptionctl purge --environment Xcode --dry-run
              subscriptionctl purge --environment Xcode
            """
    )

    @OptionGroup var options: GlobalOptions

    @Option(help: "The environment to purge: Xcode.")
    var environment: String

    @Flag(help: "Count what would be removed; remove nothing.")
    var dryRun = false

    func validate() throws {
        guard environment.lowercased() == AppStoreEnvironment.xcode.rawValue.lowercased() else {
            throw ValidationError("only --environment Xcode can be purged (Production and Sandbox purchases are Apple's record)")
        }
    }

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            let removed = try await context.xcodePurchases.purge(dryRun: dryRun)
            if options.json {
                try Output.json(PurgeDocument(removed: removed, dryRun: dryRun))
                return
            }
            let counts = removed.rows.map { "\($0.count) \($0.table)" }.joined(separator: ", ")
            Output.line("\(dryRun ? "would remove" : "removed") \(removed.total) Xcode rows: \(counts)")
        }
    }
}

/// `purge --json`: `{"environment": "Xcode", "dry_run", "removed": {"<table>": n, ...}}`.
struct PurgeDocument: Encodable {
    let removed: XcodePurchasePurge.Removed
    let dryRun: Bool

    enum CodingKeys: String, CodingKey {
        case environment, dryRun = "dry_run", removed
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(AppStoreEnvironment.xcode.rawValue, forKey: .environment)
        try container.encode(dryRun, forKey: .dryRun)
        try container.encode(Dictionary(removed.rows.map { ($0.table, $0.count) }, uniquingKeysWith: +), forKey: .removed)
    }
}
