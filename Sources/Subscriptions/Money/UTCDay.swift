import CivilDate
import Foundation

/// Days as operators write them (`2026-11-01`), taken as midnight UTC. Done with integer
/// day numbers (``CivilDate``): the rollups format and read a day for every amount they keep.
public enum UTCDay {
    /// The days a day number may have here: years 0001 through 9999.
    static let days: ClosedRange<Int64> = -719_162...2_932_896

    /// Midnight UTC of `YYYY-MM-DD`, or nil for anything else (`2026-02-30` included).
    public static func parse(_ text: String) -> Date? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 10, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for byte in utf8[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), year >= 1, (1...12).contains(month),
            (1...31).contains(day)
        else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        let number = date.daysSince1970
        // 2026-02-30 comes back as 2026-03-02: not a day.
        guard CivilDate(daysSince1970: number) == date else { return nil }
        return Date(timeIntervalSince1970: Double(number) * 86_400)
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

    /// `YYYY-MM-DD` of the UTC day `instant` falls on (clamped to years 0001 through 9999).
    public static func text(_ instant: Date) -> String {
        let days = (instant.timeIntervalSince1970 / 86_400).rounded(.down)
        let number = days.isNaN ? 0 : Int64(min(max(days, Double(Self.days.lowerBound)), Double(Self.days.upperBound)))
        let date = CivilDate(daysSince1970: number)
        var bytes = [UInt8](repeating: UInt8(ascii: "-"), count: 10)
        func put(_ value: Int64, at start: Int, digits: Int) {
            var value = value
            for index in stride(from: start + digits - 1, through: start, by: -1) {
                bytes[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(date.year, at: 0, digits: 4)
        put(date.month, at: 5, digits: 2)
        put(date.day, at: 8, digits: 2)
        return String(decoding: bytes, as: UTF8.self)
    }
}
