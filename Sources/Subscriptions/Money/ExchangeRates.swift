import Foundation

/// One exchange rate: on `day` (midnight UTC) one unit of `currency` was worth `rate` units
/// of the report currency.
public struct ExchangeRate: Sendable, Equatable {
    public let day: Date
    public let currency: String
    public let rate: Decimal

    public init(day: Date, currency: String, rate: Decimal) {
        self.day = day
        self.currency = currency
        self.rate = rate
    }
}

/// The rates into one report currency, answering "what was this amount worth on that day":
/// at the newest rate on or before the day; the report currency itself at 1.
public struct ExchangeRates: Sendable {
    public let reportCurrency: String
    private let byCurrency: [String: [ExchangeRate]]

    public init(reportCurrency: String, rates: [ExchangeRate]) {
        self.reportCurrency = reportCurrency
        self.byCurrency = Dictionary(grouping: rates, by: \.currency).mapValues { $0.sorted { $0.day < $1.day } }
    }

    /// `amount` of `currency` in the report currency on `day`; nil when no rate is on or
    /// before it (the report names the currency instead of counting it as zero).
    public func convert(_ amount: Decimal, _ currency: String, on day: Date) -> Decimal? {
        if currency == reportCurrency { return amount }
        guard let rates = byCurrency[currency] else { return nil }
        // The last rate whose day is not after `day`.
        var low = 0
        var high = rates.count
        while low < high {
            let middle = (low + high) / 2
            if rates[middle].day <= day { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : amount * rates[low - 1].rate
    }

    /// True when `text` is an ISO 4217 code as the reports take it: three upper-case letters.
    public static func isCurrencyCode(_ text: String) -> Bool {
        text.count == 3 && text.allSatisfy { $0.isASCII && $0.isUppercase }
    }
}
