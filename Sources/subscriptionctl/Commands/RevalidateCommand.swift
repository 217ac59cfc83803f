import AppStore
import AppStoreServerAPI
import ArgumentParser
import Composition
import Foundation
import Logging
import Settings
import Store
import Subscriptions
import UseCases

/// `subscriptionctl revalidate ORIGINAL_TRANSACTION_ID... | --all`.
struct RevalidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revalidate",
        abstract: "Re-verify stored receipts upstream and apply what Apple answers now.",
        discussion: """
            Each subscription's stored receipt (subscriptions.latest_receipt) is sent to verifyReceipt \
            with its app's shared secret, and the answer is applied exactly as the worker applies one, \
            so statuses catch up with anything Apple knows that no notification told us. Settings come \
            from the same environment as subscriptiond: APPSTORE_BUNDLE_ID/APPSTORE_SHARED_SECRET or \
            SUBSCRIPTIOND_CONFIG, VERIFY_RECEIPT_URL, VERIFY_RECEIPT_SANDBOX_URL, VERIFY_TIMEOUT_MS, \
            VERIFY_RECEIPT_CA_BUNDLE (a missing or bad one: exit 2).

            Outcomes: verified (applied; "status changed" counts those whose status moved), retry later \
            (upstream unavailable; not recorded), rejected (Apple refused the receipt for good; \
            recorded), skipped (no stored receipt, or no shared secret for its app).

            Resuming: --all opens a run (table revalidation_runs) and stamps each subscription with \
            revalidated_at when it gets a final answer. Ctrl-C stops after the receipts in flight \
            (a second Ctrl-C quits at once) and exits 130; the run stays open, and the next \
            `revalidate --all` resumes it, skipping subscriptions stamped since the run started and \
            retrying the "retry later" ones. A run that went through every subscription is closed; \
            the next --all starts a new one. --restart abandons an open run and starts over.

            On a terminal, stderr shows a progress bar (count, rate, ETA). The summary goes to \
            stdout (--json: one document).

            Examples:
              subscriptionctl revalidate 1000000123456789 1000000123456790
              subscriptionctl revalidate --all --concurrency 8
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: ArgumentHelp("Original transaction ids to revalidate.", valueName: "original-transaction-id"))
    var originalTransactionIDs: [String] = []

    @Flag(help: "Revalidate every subscription with a stored receipt (resuming an interrupted run).")
    var all = false

    @Flag(help: "With --all: abandon an interrupted run and start from the beginning.")
    var restart = false

    @Option(help: "Receipts verified at once (1 to 64).")
    var concurrency = 4

    func validate() throws {
        if all && !originalTransactionIDs.isEmpty { throw ValidationError("give original transaction ids or --all, not both") }
        if !all && originalTransactionIDs.isEmpty { throw ValidationError("give one or more original transaction ids, or --all") }
        if restart && !all { throw ValidationError("--restart only goes with --all") }
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be from 1 to 64") }
    }

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            let settings = try ServiceConfiguration.load(environment: ProcessInfo.processInfo.environment)
            var logger = Logger(label: "subscriptionctl.revalidate")
            logger.logLevel = .warning
            // The verifyReceipt client subscriptiond's worker uses, made the same way.
            let apple = try await AppleUpstreams.open(configuration: settings, logger: logger, transfers: concurrency)
            do {
                try await revalidate(context: context, settings: settings, receipts: apple.receipts, logger: logger)
                await apple.shutdown()
            } catch {
                await apple.shutdown()
                throw error
            }
        }
    }

    private func revalidate(
        context: OperatorContext, settings: ServiceConfiguration, receipts: ReceiptVerifier, logger: Logger
    ) async throws {
        let store = context.revalidations
        let source: Revalidator.Source
        let progress: ProgressBar
        var run: RevalidationRun?
        if all {
            let opened = try await store.openRun(restart: restart)
            run = opened
            source = .run(opened)
            progress = ProgressBar(total: opened.done + opened.remaining, alreadyDone: opened.done, label: "revalidating")
            if opened.resumed {
                progress.note(
                    "resuming revalidation run \(opened.id) started \(TimeText.withAge(opened.startedAt)): \(opened.done) done, \(opened.remaining) to go"
                )
            }
        } else {
            let (found, unknown) = try await store.items(originalTransactionIDs: originalTransactionIDs)
            guard unknown.isEmpty else {
                throw CommandFailure.notFound(
                    "no subscription with original_transaction_id \(unknown.joined(separator: ", ")); nothing was revalidated")
            }
            source = .items(found)
            progress = ProgressBar(total: found.count, label: "revalidating")
        }

        let interrupt = InterruptSignal {
            progress.note("subscriptionctl: stopping after the receipts in flight (Ctrl-C again to quit now)")
        }
        let revalidator = context.revalidator(
            evidence: AppleEvidence(receipts: receipts, api: nil), apps: settings.apps, concurrency: concurrency, logger: logger)
        let started = ContinuousClock.now
        progress.start()
        let result: (completed: Bool, summary: RevalidationSummary)
        do {
            result = try await revalidator.run(source, shouldStop: { interrupt.isRequested }, onOutcome: { _, _ in progress.advance() })
        } catch {
            progress.finish()
            interrupt.cancel()
            throw error
        }
        progress.finish()
        interrupt.cancel()
        if let run, result.completed { try await store.finish(run) }

        let report = RevalidationReport(
            summary: result.summary, run: run, interrupted: !result.completed,
            elapsed: (ContinuousClock.now - started).secondsValue
        )
        if options.json { try Output.json(report) } else { report.print() }
        if !result.completed {
            Output.error(
                all
                    ? "subscriptionctl: interrupted; run `subscriptionctl revalidate --all` again to resume"
                    : "subscriptionctl: interrupted before every subscription was revalidated")
            throw ExitCode(130)
        }
    }
}
