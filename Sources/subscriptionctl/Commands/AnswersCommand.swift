import ArgumentParser
import Composition
import Foundation
import Store
import StoredAnswers
import UseCases

/// `subscriptionctl answers rebuild`.
struct AnswersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "answers",
        abstract: "Manage the stored answers of the read endpoints.",
        subcommands: [AnswersRebuildCommand.self]
    )
}

/// `subscriptionctl answers rebuild [--batch-size N] [--concurrency N]`.
struct AnswersRebuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Compute and store the answer of every subscription and subscriber.",
        discussion: """
            GET /v1/subscriptions/{id}, GET /v1/subscribers/{id} and POST /v1/eligibility \
            answer from a stored answer while its facts, links and the product catalog are \
            unchanged and no period it describes has ended; otherwise they compute the answer \
            and store it. Reads keep the answers current by themselves: rebuild only saves the \
            first read of each key that work after a bulk load, a restore, or a catalog import \
            (which makes every stored answer stale). It is safe while the server runs.

            Example:
              subscriptionctl answers rebuild
              subscriptionctl answers rebuild --batch-size 1000 --concurrency 4
            """
    )

    @OptionGroup var options: GlobalOptions

    @Option(help: "Keys per read statement and per write (1 to 5000).")
    var batchSize = 500

    @Option(help: "Batches at a time (1 to 4: the command opens at most 4 connections).")
    var concurrency = 2

    func validate() throws {
        guard (1...5_000).contains(batchSize) else { throw ValidationError("--batch-size must be 1 to 5000") }
        guard (1...4).contains(concurrency) else { throw ValidationError("--concurrency must be 1 to 4") }
    }

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            let started = ContinuousClock.now
            let totals = try await context.answers.keyCounts()
            let progress = ProgressBar(total: totals.subscriptions + totals.subscribers, label: "rebuilding")
            progress.start()
            let count = try await context.readAnswers(logger: options.logger)
                .rebuild(batchSize: batchSize, concurrency: concurrency, progress: { progress.advance(by: $0) })
            progress.finish()
            let seconds = (ContinuousClock.now - started).components.seconds
            Output.line("stored \(count.subscriptions) subscription answers and \(count.subscribers) subscriber answers in \(seconds) s")
        }
    }
}
