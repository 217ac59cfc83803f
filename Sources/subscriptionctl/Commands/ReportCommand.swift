import Access
import ArgumentParser
import Composition
import ContractDocuments
import Foundation
import Settings
import Subscriptions
import UseCases

/// `subscriptionctl report METRIC`: the business's numbers, as `GET /v1/reports/{metric}`
/// answers them (the same use case, the same document with `--json`).
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Show a business metric over time (MRR, actives, trials, churn, revenue…).",
        discussion: """
            Metrics: \(ReportMetric.allCases.map(\.rawValue).joined(separator: ", ")).
            Days are UTC and both included; amounts are in REPORT_CURRENCY (default USD), \
            converted at the rates of `subscriptionctl rates import`. Without --from and --to, \
            the last 30 days. Examples:
              subscriptionctl report mrr --from 2026-11-01 --to 2026-11-30
              subscriptionctl report churn --from 2026-01-01 --to 2026-11-30 --interval month
              subscriptionctl report revenue --interval week --by product --csv
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The metric.")
    var metric: String

    @Option(help: "The first day, YYYY-MM-DD (default: 29 days before --to).")
    var from: String?

    @Option(help: "The last day, YYYY-MM-DD (default: today).")
    var to: String?

    @Option(help: "day, week or month (default: day).")
    var interval: String?

    @Option(help: "Group by product, storefront or app.")
    var by: String?

    @Option(help: "Only this app (bundle id).")
    var app: String?

    @Option(help: "Only this product.")
    var product: String?

    @Option(help: "Production (default), Sandbox or Xcode.")
    var environment: String?

    @Option(help: "For mrr and arr: price (default) or proceeds (estimated, after tax and Apple's commission).")
    var amount: String?

    @Flag(help: "Print comma-separated values: a date column, the value and one column per group.")
    var csv = false

    var parameters: [String: String] {
        var parameters: [String: String] = [:]
        parameters["from"] = from
        parameters["to"] = to
        parameters["interval"] = interval
        parameters["group_by"] = by
        parameters["app"] = app
        parameters["product"] = product
        parameters["environment"] = environment
        parameters["amount"] = amount
        return parameters
    }

    func run() async throws {
        let money = try MoneyEnvironment.settings()
        do {
            _ = try Reports.query(metric: metric, parameters: parameters, apps: .all, now: Date())
        } catch let error as UseCaseError {
            throw CommandFailure.usage(error.description)
        }
        try await CommandExecution.withDatabase(options) { context in
            let reports = context.reports(money: money)
            let document = ReportDocument(
                answer: try await reports.answer(metric: metric, parameters: parameters), currency: reports.currency)
            if options.json {
                Output.line(String(decoding: try ContractJSON.encode(document, pretty: true), as: UTF8.self))
            } else if csv {
                Output.line(ReportRendering.csv(document))
            } else {
                Output.line(ReportRendering.table(document))
            }
        }
    }
}

/// `subscriptionctl reports rebuild` / `reports status`: the rollups the reports read.
struct ReportsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reports",
        abstract: "Rebuild the reports' rollups from the facts, or show how far behind they are.",
        subcommands: [ReportsRebuildCommand.self, ReportsStatusCommand.self]
    )
}

/// `subscriptionctl reports rebuild`.
struct ReportsRebuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Recount every purchase chain into the reports' rollups, in one transaction.",
        discussion: """
            The rollups are kept as facts change; a rebuild recomputes them from the facts and \
            says how many day sums differed from those kept (0 when they were right). The \
            service rebuilds by itself when the catalog's prices or periods, tax_rates or \
            small_business_program change. Reports keep answering from the old rollups until \
            the rebuild commits.
            """
    )

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let money = try MoneyEnvironment.settings()
        try await CommandExecution.withDatabase(options) { context in
            let recount = try await context.reportRollups(money: money, logger: options.logger).rebuild()
            if options.json {
                try Output.json(["chains": recount.chains, "differing_sums": recount.differingSums])
            } else {
                Output.line(
                    "rebuilt the report rollups from \(recount.chains) purchase chain\(recount.chains == 1 ? "" : "s"); "
                        + "\(recount.differingSums) day sum\(recount.differingSums == 1 ? "" : "s") differed from those kept")
            }
        }
    }
}

/// `subscriptionctl reports status`.
struct ReportsStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show how many changed purchase chains wait to be counted into the reports.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let money = try MoneyEnvironment.settings()
        try await CommandExecution.withDatabase(options) { context in
            let backlog = try await context.reportRollups(money: money, logger: options.logger).backlog()
            if options.json {
                struct Status: Encodable {
                    let waiting: Int
                    let oldest: Date?
                }
                try Output.json(Status(waiting: backlog.count, oldest: backlog.oldest))
            } else {
                Output.line(
                    "\(backlog.count) changed purchase chain\(backlog.count == 1 ? "" : "s") waiting to be counted"
                        + (backlog.oldest.map { ", the oldest since \(TimeText.utc($0))" } ?? ""))
            }
        }
    }
}
