import ArgumentParser

/// The operator's admin CLI: migrations, catalog, inspection, replay, eligibility, stats.
@main
struct SubscriptionCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscriptionctl",
        abstract: "Inspect, repair and operate subscriptiond's database.",
        discussion: """
            Every command takes --database-url (default: $DATABASE_URL) and --json.
            Exit codes: 0 success, 1 not found or rule violated, 2 usage or configuration error, \
            3 database unreachable.
            """,
        subcommands: [MigrateCommand.self, ProductsCommand.self, EligibilityCommand.self]
    )
}
