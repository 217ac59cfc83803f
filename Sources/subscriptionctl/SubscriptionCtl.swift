import ArgumentParser
import BuildInfo
import Composition
import Foundation
import Logging

/// The operator's admin CLI: migrations, catalog, inspection, replay, eligibility, stats.
@main
struct SubscriptionCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscriptionctl",
        abstract: "Inspect, repair and operate subscriptiond's database.",
        discussion: """
            Every command takes --database-url (default: $DATABASE_URL) and --json.
            Exit codes: 0 success, 1 not found or rule violated, 2 usage or configuration error, \
            3 database unreachable (130 when Ctrl-C stopped a revalidation).
            """,
        version: BuildInfo.versionLine("subscriptionctl"),
        subcommands: [
            MigrateCommand.self, ProductsCommand.self, SubscriberCommand.self, SubscriptionCommand.self,
            NotificationsCommand.self, EligibilityCommand.self, RevalidateCommand.self, StatsCommand.self, WebhooksCommand.self,
            SyncCommand.self, TestNotificationCommand.self, AnswersCommand.self, GrantsCommand.self, SuspiciousCommand.self,
            LookupOrderCommand.self, RefundsCommand.self, ConsumptionCommand.self, ExtendCommand.self, PurgeCommand.self,
            KeysCommand.self, RatesCommand.self, ReportCommand.self, ImportCommand.self, ReportsCommand.self, ConsoleUserCommand.self,
            SetAppAccountTokenCommand.self, RetentionCommand.self,
        ]
    )

    /// Parses and runs like ArgumentParser's own `main`, except that usage errors exit 2 as
    /// the contract says (ArgumentParser's default is 64) with one line on stderr, and that
    /// logs go to stderr, keeping stdout for results.
    static func main() async {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            // A command's own refusal before it reached the database: its one line and code.
            Output.error("subscriptionctl: \(failure.message)")
            Foundation.exit(failure.exitCode)
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            Output.error("subscriptionctl: \(message(for: error)) (see --help)")
            Foundation.exit(2)
        }
    }
}
