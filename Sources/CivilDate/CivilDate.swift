/// A day of the proleptic Gregorian calendar, and its number of days since 1970-01-01.
///
/// Howard Hinnant's `days_from_civil` and `civil_from_days`, shared by every place that
/// reads or writes dates by hand (PostgreSQL's text, Apple's date text, the API's JSON):
/// no Foundation `Calendar`, which is Julian before October 1582 and allocates.
///
/// ```swift
/// CivilDate(year: 1970, month: 1, day: 1).daysSince1970   // 0
/// CivilDate(daysSince1970: -1)                            // 1969-12-31
/// ```
/// Months and days are not range-checked: callers validate their input first, and any
/// small values (a month of 0 or 99 from a malformed text) give a number, never a trap.
public struct CivilDate: Hashable, Sendable {
    public let year: Int64
    /// 1...12 for a date made from a day number.
    public let month: Int64
    /// 1...31 for a date made from a day number.
    public let day: Int64

    public init(year: Int64, month: Int64, day: Int64) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date of a day number, days since 1970-01-01 (negative before).
    public init(daysSince1970 days: Int64) {
        let shifted = days + 719_468
        let era = Self.floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        self.init(
            year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0),
            month: month,
            day: dayOfYear - (153 * monthIndex + 2) / 5 + 1
        )
    }

    /// Days since 1970-01-01 (negative before).
    public var daysSince1970: Int64 {
        let marchBasedYear = month <= 2 ? year - 1 : year
        let era = Self.floorDivide(marchBasedYear, 400)
        let yearOfEra = marchBasedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day and the second within it of a moment given in seconds since 1970-01-01
    /// 00:00:00 (negative before): 0 ≤ `secondOfDay` < 86,400, also before 1970.
    public static func dayAndSecond(secondsSince1970 seconds: Int64) -> (date: CivilDate, secondOfDay: Int64) {
        let days = floorDivide(seconds, 86_400)
        return (CivilDate(daysSince1970: days), seconds - days * 86_400)
    }

    /// Division rounding toward negative infinity (Swift's `/` rounds toward zero), for a
    /// positive divisor: `floorDivide(-1, 86_400)` is -1.
    public static func floorDivide(_ dividend: Int64, _ divisor: Int64) -> Int64 {
        let quotient = dividend / divisor
        return dividend % divisor < 0 ? quotient - 1 : quotient
    }
}
