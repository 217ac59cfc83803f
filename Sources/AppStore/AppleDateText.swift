import CivilDate
import Foundation

/// Apple's human-readable UTC date text, `2018-03-22 22:28:21 Etc/GMT`.
///
/// Only a fallback for bodies that lack the `_ms` field; parsed by hand so no shared,
/// non-Sendable `DateFormatter` is needed.
enum AppleDateText {
    /// The date for `yyyy-MM-dd HH:mm:ss Etc/GMT` (also `GMT` or `UTC`), else `nil`.
    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 3, ["Etc/GMT", "GMT", "UTC"].contains(String(parts[2])) else {
            return nil
        }
        let day = parts[0].split(separator: "-").compactMap { Int($0) }
        let time = parts[1].split(separator: ":").compactMap { Int($0) }
        guard day.count == 3, time.count == 3,
            (1...9999).contains(day[0]), (1...12).contains(day[1]), (1...31).contains(day[2]),
            (0...23).contains(time[0]), (0...59).contains(time[1]), (0...60).contains(time[2])
        else { return nil }
        let days = Int(CivilDate(year: Int64(day[0]), month: Int64(day[1]), day: Int64(day[2])).daysSince1970)
        let seconds = days * 86_400 + time[0] * 3_600 + time[1] * 60 + time[2]
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
