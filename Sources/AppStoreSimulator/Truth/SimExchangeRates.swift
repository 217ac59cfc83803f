import Foundation

/// Exchange rates into one report currency, in the shape `subscriptionctl rates import` reads
/// (`date,currency,rate`: on that UTC day one unit of the currency was worth `rate` units of the
/// report currency); an amount converts at the newest rate on or before its day.
public struct SimExchangeRates: Sendable, Hashable {
    /// One row of the table.
    public struct Rate: Sendable, Hashable {
        /// Midnight UTC of the day the rate starts to apply.
        public var day: Date
        /// ISO 4217.
        public var currency: String
        /// Units of the report currency per unit of `currency`.
        public var rate: Decimal

        /// A rate from its parts.
        public init(day: Date, currency: String, rate: Decimal) {
            self.day = day
            self.currency = currency
            self.rate = rate
        }
    }

    /// The currency amounts are converted into.
    public var reportCurrency: String
    /// Every rate, by day then currency.
    public private(set) var rates: [Rate]

    /// A table of `rates` into `reportCurrency`.
    public init(reportCurrency: String = "USD", rates: [Rate]) {
        self.reportCurrency = reportCurrency
        self.rates = rates.sorted { ($0.day, $0.currency) < ($1.day, $1.currency) }
    }

    /// `amount` of `currency` in the report currency on `day`; `nil` when no rate is on or
    /// before it (the report currency itself converts at 1).
    public func convert(_ amount: Decimal, _ currency: String, on day: Date) -> Decimal? {
        if currency == reportCurrency { return amount }
        return rates.last { $0.currency == currency && $0.day <= day }.map { amount * $0.rate }
    }

    /// The table as CSV with the header `date,currency,rate`, one rate a line.
    public var csv: String {
        "date,currency,rate\n" + rates.map { "\(SimDay.text($0.day)),\($0.currency),\($0.rate)\n" }.joined()
    }

    /// Reads `csv` (header `date,currency,rate`); throws naming the first line it cannot read.
    public init(csv: String, reportCurrency: String = "USD") throws {
        var rates: [Rate] = []
        let lines = csv.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.first?.lowercased() == "date,currency,rate" else {
            throw SimulatorError("exchange rates: the first line must be date,currency,rate")
        }
        for (number, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3, let day = SimDay.parse(fields[0]), let rate = Decimal(string: fields[2]), rate > 0 else {
                throw SimulatorError("exchange rates: line \(number + 1) is not DAY,CURRENCY,RATE: \(line)")
            }
            rates.append(Rate(day: day, currency: fields[1], rate: rate))
        }
        self.init(reportCurrency: reportCurrency, rates: rates)
    }

    /// The simulator's own rates into USD: one per currency on the first of every month from
    /// `from`'s month through `through`'s, moving up to ±3 % around a base from month to month
    /// (EUR 1.08, GBP 1.27, JPY 0.0067, CAD 0.73), so that which day's rate applies matters.
    public static func standard(from: Date, through: Date) -> SimExchangeRates {
        // Base rates as significand × 10^exponent, so every rate is an exact decimal.
        let bases: [(currency: String, significand: Int, exponent: Int)] = [
            ("CAD", 73, -2), ("EUR", 108, -2), ("GBP", 127, -2), ("JPY", 67, -4),
        ]
        var rates: [Rate] = []
        var month = SimDay.month(of: from)
        let last = SimDay.month(of: through).start
        while month.start <= last {
            let percent = 100 + (month.index * 5) % 7 - 3
            for base in bases {
                let rate = Decimal(
                    sign: .plus, exponent: base.exponent - 2, significand: Decimal(base.significand * percent))
                rates.append(Rate(day: month.start, currency: base.currency, rate: rate))
            }
            let next = SimDay.nextMonth(after: month.start)
            month = (next, month.index + 1)
        }
        return SimExchangeRates(reportCurrency: "USD", rates: rates)
    }
}
