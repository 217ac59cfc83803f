import ArgumentParser
import Composition
import Foundation
import Settings
import Store
import UseCases

/// `subscriptionctl import FILE.csv [--app BUNDLE_ID] [--resume | --restart] [--dry-run]`.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Move existing customers in: look each purchase up with Apple and link it to its app user.",
        discussion: """
            FILE.csv has a header with app_user_id and transaction_id, original_transaction_id \
            or receipt_data (other columns are ignored; a row takes the first of the three it \
            fills). Each row is looked up with Apple as POST /v1/transactions and /v1/receipts \
            do, at Apple's per-app rate, applied, and linked under the app's link_policy. Each \
            row's outcome is journaled in the database as it ends: after an interruption, rerun \
            with --resume (from any machine) and only the rows not done are asked again. \
            Exit 0 when every row is imported or already there, 1 when any row was refused \
            (each is listed with its line), 2 for a file that cannot be read or a wrong \
            --resume. subscriptiond need not run. See docs/import.md.

            Examples:
              subscriptionctl import customers.csv --dry-run
              subscriptionctl import customers.csv --app com.example.app
              subscriptionctl import customers.csv --resume
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The CSV file.")
    var file: String

    @Option(help: "The app's bundle id (needed when several apps are configured).")
    var app: String?

    @Flag(help: "Continue the unfinished import of this file where it stopped.")
    var resume = false

    @Flag(help: "Give up the unfinished import of this file and start it over.")
    var restart = false

    @Flag(help: "Read and check the file and say what would be done; ask Apple nothing, change nothing.")
    var dryRun = false

    @Option(help: "Rows looked up at once (1 to 64); Apple's rate limit paces them whatever the number.")
    var concurrency = 8

    func validate() throws {
        if resume && restart { throw ValidationError("--resume and --restart exclude each other") }
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be from 1 to 64") }
    }

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: file) else { throw CommandFailure.usage("cannot read \(file)") }
        try await CommandExecution.withDatabase(options) { context in
            try await APISession.with(concurrency: concurrency) { session in
                let importer = context.customerImport(
                    evidence: session.evidence, receiptProof: session.receiptProof, apps: session.settings.apps,
                    concurrency: concurrency, logger: session.logger)
                let plan = try await ManualChange.refusing { try importer.plan(file: data, name: file, bundleID: app) }
                if dryRun {
                    ImportReport.dryRun(plan, unfinished: try? await importer.unfinishedRun(of: plan), json: options.json)
                    return
                }
                let run = try await ManualChange.refusing { try await importer.begin(plan, resume: resume, restart: restart) }
                let progress = ProgressBar(total: plan.rows.count, alreadyDone: run.done, label: "importing")
                progress.start()
                let summary = try await importer.run(plan, in: run, onEach: { progress.advance() })
                progress.finish()
                try ImportReport.summary(summary, of: plan, json: options.json)
                if !summary.isComplete {
                    let refused = summary.refused.count
                    throw CommandFailure.refused(
                        summary.notDone.isEmpty
                            ? "\(refused) row\(refused == 1 ? "" : "s") refused"
                            : "\(summary.notDone.count) rows not done (Apple did not answer): rerun with --resume")
                }
            }
        }
    }
}
