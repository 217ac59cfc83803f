import CatalogFiles
import Subscriptions

/// `subscriptionctl rates import` and `rates list`: the exchange rates into the report
/// currency. A file with any problem changes nothing.
public struct ExchangeRateImport: Sendable {
    /// A refused file: every problem, one line each, naming its file line.
    public struct Refused: Error, Sendable {
        public let problems: [String]
    }

    private let repository: any ExchangeRateRepository
    /// `REPORT_CURRENCY`: what the rates are quoted in.
    public let reportCurrency: String

    public init(repository: any ExchangeRateRepository, reportCurrency: String) {
        self.repository = repository
        self.reportCurrency = reportCurrency
    }

    /// Imports the rates of a `date,currency,rate` file's `text`.
    public func importFile(_ text: String) async throws -> (added: Int, replaced: Int) {
        switch ExchangeRateFile.parse(text, reportCurrency: reportCurrency) {
        case .success(let rates): return try await repository.importRates(rates, quote: reportCurrency)
        case .failure(let problems): throw Refused(problems: problems.lines)
        }
    }

    /// Every rate into the report currency, by currency and day.
    public func list() async throws -> [ExchangeRate] {
        try await repository.rates(quote: reportCurrency)
    }

    /// The rates into the report currency, ready to convert with.
    public func rates() async throws -> ExchangeRates {
        ExchangeRates(reportCurrency: reportCurrency, rates: try await list())
    }
}
