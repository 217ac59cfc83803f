import Foundation

extension ISO8601Duration {
    /// `date` moved forward by this duration on the UTC Gregorian calendar (a month from
    /// 31 January is the end of February), or nil when the result cannot be represented.
    public func added(to date: Date) -> Date? {
        var components = DateComponents()
        components.year = years
        components.month = months
        components.day = weeks * 7 + days
        return Self.utc.date(byAdding: components, to: date)
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()
}
