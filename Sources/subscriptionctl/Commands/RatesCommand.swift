import ArgumentParser
import Composition
import Foundation
import Settings
import Subscriptions
import UseCases

/// `subscriptionctl rates import FILE.csv` / `rates list`: exchange rates into
/// `REPORT_CURRENCY` (default USD), which the reports convert amounts with.
struct RatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rates",
        abstract: "Import and list the exchange rates the reports convert amounts with.",
        subcommands: [RatesImportCommand.self, RatesListCommand.self]
    )
}

/// `subscriptionctl rates import FILE.csv`.
struct RatesImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add exchange rates from a date,currency,rate file (a file with any problem changes nothing).",
        discussion: """
            Each line gives how many units of REPORT_CURRENCY (default USD) one unit of the \
            currency was worth on that day; a report converts an amount at the newest rate on or \
            before its day. A rate already stored for a currency and day is replaced. Exit 1 with \
            one line per problem when the file has any.

            Example file:
              date,currency,rate
              2026-11-01,EUR,1.0834
              2026-11-01,GBP,1.2611
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The CSV file.")
    var file: String

    func run() async throws {
        let currency = try MoneyEnvironment.reportCurrency()
        guard let data = FileManager.default.contents(atPath: file) else { throw CommandFailure.usage("cannot read \(file)") }
        try await CommandExecution.withDatabase(options) { context in
            do {
                let result = try await context.exchangeRates(reportCurrency: currency).importFile(String(decoding: data, as: UTF8.self))
                if options.json {
                    try Output.json(["added": result.added, "replaced": result.replaced])
                } else {
                    Output.line("imported rates into \(currency): \(result.added) added, \(result.replaced) replaced")
                }
            } catch let refused as ExchangeRateImport.Refused {
                refused.problems.forEach { Output.error("\(file): \($0)") }
                throw CommandFailure.refused(
                    "\(file) has \(refused.problems.count) problem\(refused.problems.count == 1 ? "" : "s"); nothing was imported")
            }
        }
    }
}

/// `subscriptionctl rates list`.
struct RatesListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Show the exchange rates into REPORT_CURRENCY, by currency and day.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let currency = try MoneyEnvironment.reportCurrency()
        try await CommandExecution.withDatabase(options) { context in
            let rows = try await context.exchangeRates(reportCurrency: currency).list().map { rate in
                (day: UTCDay.text(rate.day), currency: rate.currency, rate: "\(rate.rate)")
            }
            if options.json {
                try Output.json(rows.map { ["date": $0.day, "currency": $0.currency, "rate": $0.rate] })
                return
            }
            guard !rows.isEmpty else {
                Output.line("no exchange rates into \(currency) (subscriptionctl rates import FILE.csv)")
                return
            }
            var table = Table("DATE", "CURRENCY", "RATE (\(currency))")
            for row in rows { table.append([row.day, row.currency, row.rate]) }
            Output.line(table.render())
        }
    }
}
