import Foundation

/// Reading the contract's times from people and requests.
public enum RFC3339 {
    /// Reads an RFC 3339 time (`2026-10-03T10:00:00Z`, fractional seconds allowed) or a UTC
    /// date (`2026-10-03`, its midnight); nil for anything else.
    public static func parse(_ text: String) -> Date? {
        let full = ISO8601DateFormatter()
        if let date = full.date(from: text) { return date }
        full.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = full.date(from: text) { return date }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        day.timeZone = TimeZone(identifier: "UTC")
        return day.date(from: text)
    }
}
