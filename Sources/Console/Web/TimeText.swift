import Foundation

/// Times as the console shows them: UTC, to the minute (`2026-11-28 14:05 UTC`).
enum ConsoleTime {
    static func minute(_ date: Date?) -> String {
        guard let date else { return "–" }
        // 2026-11-28T14:05:09Z → 2026-11-28 14:05 UTC
        let text = date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
        guard text.count >= 16 else { return text }
        return text.prefix(10) + " " + text.dropFirst(11).prefix(5) + " UTC"
    }
}
