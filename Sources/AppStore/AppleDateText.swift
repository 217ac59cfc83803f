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
        let days = daysFromCivil(year: day[0], month: day[1], day: day[2])
        let seconds = days * 86_400 + time[0] * 3_600 + time[1] * 60 + time[2]
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
