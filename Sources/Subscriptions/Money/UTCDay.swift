import Foundation

/// Days as operators write them (`2026-11-01`), taken as midnight UTC.
public enum UTCDay {
    /// Midnight UTC of `YYYY-MM-DD`, or nil for anything else (`2026-02-30` included).
    public static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day)
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }

    /// Midnight UTC at or before `instant`: the day it falls on.
    public static func floor(_ instant: Date) -> Date {
        let seconds = instant.timeIntervalSince1970
        return Date(timeIntervalSince1970: (seconds / 86_400).rounded(.down) * 86_400)
    }

    /// Midnight UTC at or after `instant`: the first midnight from which it has happened.
    public static func ceiling(_ instant: Date) -> Date {
        let seconds = instant.timeIntervalSince1970
        return Date(timeIntervalSince1970: (seconds / 86_400).rounded(.up) * 86_400)
    }

    /// `YYYY-MM-DD` of the UTC day `instant` falls on.
    public static func text(_ instant: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }
}
