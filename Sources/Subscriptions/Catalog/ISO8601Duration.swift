import Foundation

/// A calendar length written as an ISO 8601 duration such as `P1W`, `P1M` or `P1Y`.
///
/// Only the date part is accepted (years, months, weeks, days, in that order): App Store
/// periods are never hours or minutes. Zero, negative and fractional lengths are rejected.
/// Equality compares the components as written (`P7D != P1W`); use `isSamePeriod(as:)` for
/// calendar equality and `isShorter(than:)`/`isLonger(than:)` to order lengths.
public struct ISO8601Duration: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Whole years.
    public let years: Int
    /// Whole months.
    public let months: Int
    /// Whole weeks.
    public let weeks: Int
    /// Whole days.
    public let days: Int

    /// A duration from components; `nil` when one is negative or all are zero.
    public init?(years: Int = 0, months: Int = 0, weeks: Int = 0, days: Int = 0) {
        let parts = [years, months, weeks, days]
        guard parts.allSatisfy({ $0 >= 0 }), parts.contains(where: { $0 > 0 }) else { return nil }
        self.years = years
        self.months = months
        self.weeks = weeks
        self.days = days
    }

    /// Parses `PnYnMnWnD` text (any non-empty subset, in that order); `nil` for anything else.
    public init?(_ text: String) {
        guard let parsed = Self.parse(text) else { return nil }
        self = parsed
    }

    /// The canonical text, e.g. `P1M`, `P1Y6M`, `P2W`.
    public var description: String {
        let parts = [(years, "Y"), (months, "M"), (weeks, "W"), (days, "D")]
        return "P" + parts.filter { $0.0 > 0 }.map { "\($0.0)\($0.1)" }.joined()
    }

    /// The length in days with a month counted as 30 days and a year as 365.
    public var approximateDays: Int {
        years * 365 + months * 30 + weeks * 7 + days
    }

    /// Years and months as months: the exact part that has no fixed number of days.
    public var totalMonths: Int { years * 12 + months }

    /// Weeks and days as days: the exact part that has a fixed number of days.
    public var totalDays: Int { weeks * 7 + days }

    /// Whether both name the same calendar period (`P1W` and `P7D`, `P1Y` and `P12M` do).
    public func isSamePeriod(as other: ISO8601Duration) -> Bool {
        totalMonths == other.totalMonths && totalDays == other.totalDays
    }

    /// Whether this is shorter than `other`: exactly when one part agrees, else by `approximateDays`.
    public func isShorter(than other: ISO8601Duration) -> Bool {
        lengthOrder(other) < 0
    }

    /// Whether this is longer than `other`: exactly when one part agrees, else by `approximateDays`.
    public func isLonger(than other: ISO8601Duration) -> Bool {
        lengthOrder(other) > 0
    }

    /// This duration repeated `count` times (`P1M` × 3 = `P3M`); `nil` when `count` is below 1.
    public func repeated(_ count: Int) -> ISO8601Duration? {
        guard count >= 1 else { return nil }
        let (y, o1) = years.multipliedReportingOverflow(by: count)
        let (m, o2) = months.multipliedReportingOverflow(by: count)
        let (w, o3) = weeks.multipliedReportingOverflow(by: count)
        let (d, o4) = days.multipliedReportingOverflow(by: count)
        guard !(o1 || o2 || o3 || o4) else { return nil }
        return ISO8601Duration(years: y, months: m, weeks: w, days: d)
    }

    /// Negative, zero or positive as this is shorter than, as long as, or longer than `other`.
    ///
    /// Months have no fixed length, so when the month parts agree the day parts decide exactly
    /// (`P12M5D` is longer than `P1Y`), and the other way round; only mixed cases fall back to
    /// the approximation.
    private func lengthOrder(_ other: ISO8601Duration) -> Int {
        if totalMonths == other.totalMonths { return totalDays - other.totalDays }
        if totalDays == other.totalDays { return totalMonths - other.totalMonths }
        return approximateDays - other.approximateDays
    }

    /// Decodes from the duration text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parsed = Self.parse(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 duration: \(text)")
        }
        self = parsed
    }

    /// Encodes as the canonical duration text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
