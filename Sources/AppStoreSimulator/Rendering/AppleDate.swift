import Foundation

/// Apple's three spellings of one moment: `2016-06-17 01:32:28 Etc/GMT`, the same in
/// `America/Los_Angeles` for the `_pst` twin, and milliseconds since 1970 as a string.
enum AppleDate {
    private static let utc = calendar("UTC")
    private static let pacific = calendar("America/Los_Angeles")

    private static func calendar(_ zone: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar
    }

    /// `yyyy-MM-dd HH:mm:ss Etc/GMT`.
    static func gmt(_ date: Date) -> String {
        text(date, utc) + " Etc/GMT"
    }

    /// `yyyy-MM-dd HH:mm:ss America/Los_Angeles` (daylight saving included).
    static func pst(_ date: Date) -> String {
        text(date, pacific) + " America/Los_Angeles"
    }

    /// Milliseconds since 1970, as Apple's `_ms` strings.
    static func milliseconds(_ date: Date) -> String {
        String(Int64((date.timeIntervalSince1970 * 1_000).rounded(.down)))
    }

    /// The `name`, `name_ms` and `name_pst` members for `date`.
    static func members(_ name: String, _ date: Date) -> [(String, JSONValue)] {
        [
            (name, .string(gmt(date))),
            (name + "_ms", .string(milliseconds(date))),
            (name + "_pst", .string(pst(date))),
        ]
    }

    /// RFC 3339 in UTC (`2026-12-01T10:00:00Z`), as subscriptiond's JSON writes times.
    static func rfc3339(_ date: Date) -> String {
        let c = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return "\(pad(c.year!, 4))-\(pad(c.month!))-\(pad(c.day!))T\(pad(c.hour!)):\(pad(c.minute!)):\(pad(c.second!))Z"
    }

    private static func text(_ date: Date, _ calendar: Calendar) -> String {
        let whole = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: whole)
        return "\(pad(c.year!, 4))-\(pad(c.month!))-\(pad(c.day!)) \(pad(c.hour!)):\(pad(c.minute!)):\(pad(c.second!))"
    }

    private static func pad(_ number: Int, _ width: Int = 2) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
