import Foundation

/// The days a money question names: counts and MRR at the end of `day`, revenue from `from`
/// through `to`. Absent, `day` is today and revenue covers the 30 days through `day`.
public struct MoneyQuery: Sendable, Hashable {
    /// Midnight UTC of the day whose end the counts are at.
    public var day: Date
    /// Midnight UTC of the revenue's first day.
    public var from: Date
    /// Midnight UTC of the revenue's last day (included).
    public var to: Date

    /// The days of `day`, `from` and `to` (`2026-11-01`), each optional; `nil` when one is not a
    /// day or `from` comes after `to`.
    public init?(day: String?, from: String?, to: String?, now: Date = Date()) {
        guard let day = day.map(SimDay.parse) ?? SimDay.start(of: now) else { return nil }
        guard let to = to.map(SimDay.parse) ?? day else { return nil }
        guard let from = from.map(SimDay.parse) ?? to.addingTimeInterval(-29 * 86_400), from <= to else { return nil }
        self.day = day
        self.from = from
        self.to = to
    }
}
