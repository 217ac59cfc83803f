import Foundation
import Subscriptions

/// `subscriptionctl rates import FILE.csv`: a header `date,currency,rate`, then one rate a
/// line: a UTC day (`2026-11-01`), a three-letter currency, and how many units of the report
/// currency one unit of it was worth (a positive decimal, `1.0834`). A file with any problem
/// is refused whole, each problem on a line naming its file line.
public enum ExchangeRateFile {
    /// The rates of `text`, quoted in `reportCurrency`, or every problem found.
    public static func parse(_ text: String, reportCurrency: String) -> Result<[ExchangeRate], CatalogProblems> {
        let table: CSVTable
        switch CSVTable.read(text) {
        case .success(let read): table = read
        case .failure(let unclosed): return .failure(CatalogProblems(lines: ["line \(unclosed.line): a quoted field is never closed"]))
        }
        var records = table.records.filter { !($0.fields.count == 1 && $0.fields[0].isEmpty) }
        guard let header = records.first else {
            return .failure(CatalogProblems(lines: ["the file is empty: expected date,currency,rate"]))
        }
        guard header.fields.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) == ["date", "currency", "rate"] else {
            return .failure(CatalogProblems(lines: ["line \(header.line): the header must be date,currency,rate"]))
        }
        records.removeFirst()
        var problems: [String] = []
        var rates: [ExchangeRate] = []
        var seen: [String: Int] = [:]
        for record in records {
            let place = "line \(record.line)"
            guard record.fields.count == 3 else {
                problems.append("\(place): expected 3 fields (date,currency,rate), found \(record.fields.count)")
                continue
            }
            let fields = record.fields.map { $0.trimmingCharacters(in: .whitespaces) }
            var ok = true
            let day = UTCDay.parse(fields[0])
            if day == nil {
                problems.append("\(place): date \"\(fields[0])\" is not a day such as 2026-11-01")
                ok = false
            }
            if !ExchangeRates.isCurrencyCode(fields[1]) {
                problems.append("\(place): currency \"\(fields[1])\" is not three upper-case letters such as EUR")
                ok = false
            } else if fields[1] == reportCurrency {
                problems.append("\(place): \(reportCurrency) is the report currency (REPORT_CURRENCY): it needs no rate")
                ok = false
            }
            var rate: Decimal?
            switch CatalogPrice.read(fields[2]) {
            case .price(let value) where value > 0: rate = value
            default:
                problems.append("\(place): rate \"\(fields[2])\" is not a positive decimal such as 1.0834")
                ok = false
            }
            guard ok, let day, let rate else { continue }
            let key = "\(fields[0])|\(fields[1])"
            if let first = seen[key] {
                problems.append("\(place): \(fields[1]) on \(fields[0]) is given again (first on line \(first))")
                continue
            }
            seen[key] = record.line
            rates.append(ExchangeRate(day: day, currency: fields[1], rate: rate))
        }
        if problems.isEmpty && rates.isEmpty { problems.append("the file has a header but no rates") }
        return problems.isEmpty ? .success(rates) : .failure(CatalogProblems(lines: problems))
    }
}
