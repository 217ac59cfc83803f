import Foundation

/// Timestamps for people: UTC, minute precision, with a relative age.
enum TimeText {
    /// `2026-12-01 10:00Z`.
    static func utc(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm'Z'"
        return formatter.string(from: date)
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

    private static func plural(_ count: Int, _ unit: String) -> String {
        "\(count) \(unit)\(count == 1 ? "" : "s")"
    }
}
