import Foundation

/// UTC days as the reports count them: `2026-11-01`, from midnight to midnight.
public enum SimDay {
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// Midnight UTC of the day `date` falls on.
    public static func start(of date: Date) -> Date {
        calendar.startOfDay(for: date)
    }

    /// `yyyy-MM-dd` of the UTC day `date` falls on.
    public static func text(_ date: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    /// Midnight UTC of `text` (`2026-11-01`); `nil` unless it is such a day.
    public static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        let date = calendar.date(from: DateComponents(year: year, month: month, day: day))
        return date.flatMap { self.text($0) == text ? $0 : nil }
    }

    /// The first of the month `date` falls in, and how many months separate it from year 0.
    static func month(of date: Date) -> (start: Date, index: Int) {
        let c = calendar.dateComponents([.year, .month], from: date)
        return (calendar.date(from: DateComponents(year: c.year, month: c.month, day: 1))!, c.year! * 12 + c.month! - 1)
    }

    /// The first of the month after `monthStart`.
    static func nextMonth(after monthStart: Date) -> Date {
        calendar.date(byAdding: .month, value: 1, to: monthStart)!
    }
}
