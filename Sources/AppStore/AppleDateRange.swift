import Foundation

/// The dates an App Store document may carry: from 2007-01-01 (before the App Store opened)
/// to the end of 9999 (the largest year PostgreSQL's text formats and ours round-trip).
///
/// Anything else — negative, non-finite, fractional milliseconds, or a value that overflows
/// a 64-bit count — is malformed rather than absent, so no such value can reach the database
/// layer or the status rules.
public enum AppleDateRange {
    /// 2007-01-01T00:00:00Z in milliseconds since 1970.
    public static let earliestMilliseconds: Int64 = 1_167_609_600_000
    /// 9999-12-31T23:59:59.999Z in milliseconds since 1970.
    public static let latestMilliseconds: Int64 = 253_402_300_799_999

    /// What every refused date is told.
    static let problem = "is not a whole number of milliseconds for a date between 2007 and 9999"

    /// The date for a millisecond count inside the range, else nil.
    public static func date(milliseconds: Int64) -> Date? {
        guard (earliestMilliseconds...latestMilliseconds).contains(milliseconds) else { return nil }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
    }

    /// The date for a JSON number: integral, finite and inside the range, else nil.
    public static func date(milliseconds value: Double) -> Date? {
        guard value.isFinite, value == value.rounded(),
            value >= Double(earliestMilliseconds), value <= Double(latestMilliseconds)
        else { return nil }
        return date(milliseconds: Int64(value))
    }

    /// The date for decimal digits (an optional leading `-` is read, then refused by range);
    /// nil for anything else, including fractions, exponents, hex and overflow.
    public static func date(millisecondText text: Substring) -> Date? {
        guard let value = Int64(text) else { return nil }
        return date(milliseconds: value)
    }

    /// True for text whose characters could only mean a number (digits, sign, point,
    /// exponent, hex digits and prefix): such text in a date field must be a valid
    /// millisecond count. Apple's date texts (`2014-03-12 10:18:05 Etc/GMT`) hold spaces.
    static func looksNumeric(_ text: Substring) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isHexDigit || "+-.xX".contains($0) }
    }
}

extension AppleDateRange {
    /// True for a date inside the range.
    static func contains(_ date: Date) -> Bool {
        let millis = date.timeIntervalSince1970 * 1_000
        return millis >= Double(earliestMilliseconds) && millis <= Double(latestMilliseconds)
    }
}
