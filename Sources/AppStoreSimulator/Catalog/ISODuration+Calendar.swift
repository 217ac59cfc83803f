import Foundation

extension ISODuration {
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// The end of `count` of these durations from `start` in real time: the Gregorian calendar
    /// in UTC, as Apple bills and as non-renewing and trial periods run (never accelerated).
    public func end(from start: Date, count: Int = 1) -> Date {
        let total = times(count)
        var components = DateComponents()
        components.year = total.years
        components.month = total.months
        components.day = total.weeks * 7 + total.days
        components.second = total.timeSeconds
        return Self.calendar.date(byAdding: components, to: start)!
    }
}
