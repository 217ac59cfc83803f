import Foundation

/// Timestamps for people: UTC, minute precision, with a relative age.
enum TimeText {
    /// `2026-12-01 10:00Z` (a day alone: `UTCDay.text`).
    static func utc(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm'Z'"
        return formatter.string(from: date)
    }

    /// `2026-12-01 10:00Z (in 8 days)`.
    static func withAge(_ date: Date, now: Date = Date()) -> String {
        "\(utc(date)) (\(relative(date, now: now)))"
    }

    /// `withAge`, or `-` when there is no date.
    static func withAge(_ date: Date?, now: Date = Date()) -> String {
        date.map { withAge($0, now: now) } ?? "-"
    }

    /// `in 8 days`, `3 hours ago`, `just now`.
    static func relative(_ date: Date, now: Date = Date()) -> String {
        let seconds = date.timeIntervalSince(now)
        let magnitude = abs(seconds)
        let amount: String
        switch magnitude {
        case ..<60: return "just now"
        case ..<3600: amount = plural(Int(magnitude / 60), "minute")
        case ..<86_400: amount = plural(Int(magnitude / 3600), "hour")
        default: amount = plural(Int(magnitude / 86_400), "day")
        }
        return seconds > 0 ? "in \(amount)" : "\(amount) ago"
    }

    /// A compact duration: `42s`, `3m 05s`, `2h 10m`, `4d 3h`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(max(0, seconds).rounded())
        switch total {
        case ..<60: return "\(total)s"
        case ..<3600: return "\(total / 60)m \(String(format: "%02d", total % 60))s"
        case ..<86_400: return "\(total / 3600)h \(String(format: "%02d", total / 60 % 60))m"
        default: return "\(total / 86_400)d \(total / 3600 % 24)h"
        }
    }

    private static func plural(_ count: Int, _ unit: String) -> String {
        "\(count) \(unit)\(count == 1 ? "" : "s")"
    }
}
