import CivilDate
import Foundation

/// Reads and writes `timestamptz` values in the ISO text format every session of ours uses
/// (`DateStyle=ISO`, `TimeZone=UTC`), without a `DateFormatter` on the hot path.
enum PostgresTimestamp {
    /// What `format` sends for a date outside years 0001–9999 or not finite: PostgreSQL
    /// rejects it (SQLSTATE 22007, invalid datetime format), so the statement fails cleanly
    /// instead of the process trapping or storing a date no reader of ours can parse.
    static let outOfRangeLiteral = "date outside years 0001-9999"

    /// 0001-01-01 00:00:00 UTC and 9999-12-31 23:59:59.999999 UTC, in microseconds since 1970.
    static let minimumMicros: Int64 = CivilDate(year: 1, month: 1, day: 1).daysSince1970 * 86_400_000_000
    static let maximumMicros: Int64 = CivilDate(year: 10_000, month: 1, day: 1).daysSince1970 * 86_400_000_000 - 1

    /// Formats a date as `2026-11-22 10:00:00.123456+00`, microsecond precision; total:
    /// any `Date`, even infinite or NaN, yields a string (see `outOfRangeLiteral`).
    static func format(_ date: Date) -> String {
        let scaled = (date.timeIntervalSince1970 * 1_000_000).rounded()
        // Range-checked as a Double first, so the conversion to Int64 cannot trap.
        guard scaled.isFinite, scaled >= Double(minimumMicros), scaled <= Double(maximumMicros),
            let totalMicros = Int64(exactly: scaled), (minimumMicros...maximumMicros).contains(totalMicros)
        else { return outOfRangeLiteral }
        let totalSeconds = CivilDate.floorDivide(totalMicros, 1_000_000)
        let micros = totalMicros - totalSeconds * 1_000_000
        let (date, seconds) = CivilDate.dayAndSecond(secondsSince1970: totalSeconds)
        return pad(date.year, 4) + "-" + pad(date.month, 2) + "-" + pad(date.day, 2) + " "
            + pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2)
            + "." + pad(micros, 6) + "+00"
    }

    /// Parses `YYYY-MM-DD HH:MM:SS[.ffffff][+HH[:MM]]`; returns nil for anything else
    /// (including `infinity`, which no column of ours stores).
    static func parse(_ text: String) -> Date? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 19, utf8[4] == UInt8(ascii: "-"), utf8[10] == UInt8(ascii: " ") || utf8[10] == UInt8(ascii: "T") else {
            return nil
        }
        guard let year = number(utf8, 0, 4), let month = number(utf8, 5, 2), let day = number(utf8, 8, 2),
            let hour = number(utf8, 11, 2), let minute = number(utf8, 14, 2), let second = number(utf8, 17, 2)
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < utf8.count, utf8[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            while index < utf8.count, let digit = digitValue(utf8[index]) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
        }
        var offsetSeconds: Int64 = 0
        if index < utf8.count {
            let sign: Int64 = utf8[index] == UInt8(ascii: "-") ? -1 : 1
            guard utf8[index] == UInt8(ascii: "+") || utf8[index] == UInt8(ascii: "-"),
                let offsetHours = number(utf8, index + 1, 2)
            else { return nil }
            var offsetMinutes: Int64 = 0
            if index + 3 < utf8.count, utf8[index + 3] == UInt8(ascii: ":") {
                offsetMinutes = number(utf8, index + 4, 2) ?? 0
            }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        let days = CivilDate(year: year, month: month, day: day).daysSince1970
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private static func digitValue(_ byte: UInt8) -> Int64? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int64(byte - UInt8(ascii: "0")) : nil
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ length: Int) -> Int64? {
        guard start + length <= bytes.count else { return nil }
        var value: Int64 = 0
        for index in start..<(start + length) {
            guard let digit = digitValue(bytes[index]) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

extension Date: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(PostgresTimestamp.format(self)) }

    /// This date as a `timestamptz` column holds it and a query reads it back: rounded to the
    /// microsecond, exactly as decoded. For a copy kept in memory of what was just written,
    /// so that it compares as the stored row would. A date no column can hold stays as it is.
    public var asStoredInPostgres: Date {
        PostgresTimestamp.parse(PostgresTimestamp.format(self)) ?? self
    }
}

/// Decodes `bytea` in the hex output format (`\x0a1b…`).
enum PostgresHex {
    /// `bytea`'s hex input form (`\x0a1b…`).
    static func encodeBytea(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        text.reserveCapacity(2 + bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    static func decodeBytea(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else {
            return nil
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((utf8.count - 2) / 2)
        var index = 2
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
