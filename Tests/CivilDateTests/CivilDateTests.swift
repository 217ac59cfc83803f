import CivilDate
import Foundation
import Testing

@Suite("CivilDate: days since 1970 and back, proleptic Gregorian")
struct CivilDateTests {
    @Test("known days")
    func knownDays() {
        #expect(CivilDate(year: 1970, month: 1, day: 1).daysSince1970 == 0)
        #expect(CivilDate(daysSince1970: -1) == CivilDate(year: 1969, month: 12, day: 31))
        #expect(CivilDate(year: 2000, month: 3, day: 1).daysSince1970 == 11_017)
        #expect(CivilDate(daysSince1970: 11_016) == CivilDate(year: 2000, month: 2, day: 29))
        #expect(CivilDate(year: 1, month: 1, day: 1).daysSince1970 == -719_162)
        #expect(CivilDate(daysSince1970: 2_932_896) == CivilDate(year: 9999, month: 12, day: 31))
        // 1900 is not a leap year, 2000 is: proleptic Gregorian, not Julian.
        #expect(
            CivilDate(daysSince1970: CivilDate(year: 1900, month: 2, day: 28).daysSince1970 + 1)
                == CivilDate(year: 1900, month: 3, day: 1))
    }

    @Test("floor division rounds toward negative infinity, without trapping at the extremes")
    func floorDivide() {
        #expect(CivilDate.floorDivide(86_399, 86_400) == 0)
        #expect(CivilDate.floorDivide(86_400, 86_400) == 1)
        #expect(CivilDate.floorDivide(0, 86_400) == 0)
        #expect(CivilDate.floorDivide(-1, 86_400) == -1)
        #expect(CivilDate.floorDivide(-86_400, 86_400) == -1)
        #expect(CivilDate.floorDivide(-86_401, 86_400) == -2)
        #expect(CivilDate.floorDivide(Int64.min, 1_000_000) == Int64.min / 1_000_000 - 1)
        #expect(CivilDate.floorDivide(Int64.max, 1_000_000) == Int64.max / 1_000_000)
    }

    @Test("a moment splits into its day and a second of day in 0..<86,400, before 1970 too")
    func dayAndSecond() {
        let epoch = CivilDate.dayAndSecond(secondsSince1970: 0)
        #expect(epoch.date == CivilDate(year: 1970, month: 1, day: 1) && epoch.secondOfDay == 0)
        let lastSecondBefore = CivilDate.dayAndSecond(secondsSince1970: -1)
        #expect(lastSecondBefore.date == CivilDate(year: 1969, month: 12, day: 31) && lastSecondBefore.secondOfDay == 86_399)
        let dayBefore = CivilDate.dayAndSecond(secondsSince1970: -86_400)
        #expect(dayBefore.date == CivilDate(year: 1969, month: 12, day: 31) && dayBefore.secondOfDay == 0)
        let leapDay = CivilDate.dayAndSecond(secondsSince1970: 11_016 * 86_400 + 3_661)
        #expect(leapDay.date == CivilDate(year: 2000, month: 2, day: 29) && leapDay.secondOfDay == 3_661)
    }

    @Test("every day of years 0001-9999 survives the round trip, and each follows the one before")
    func roundTripEveryDay() {
        var previous = CivilDate(daysSince1970: -719_163)
        #expect(previous == CivilDate(year: 0, month: 12, day: 31))
        for days in Int64(-719_162)...2_932_896 {
            let date = CivilDate(daysSince1970: days)
            let follows =
                date.day == previous.day + 1 && date.month == previous.month && date.year == previous.year
                || date.day == 1
                    && (date.month == previous.month + 1 && date.year == previous.year
                        || date.month == 1 && previous.month == 12 && date.year == previous.year + 1)
            guard date.daysSince1970 == days, follows, (1...12).contains(date.month), (1...31).contains(date.day) else {
                Issue.record("day \(days): \(date) after \(previous)")
                return
            }
            previous = date
        }
    }

    @Test("agrees with Foundation's Gregorian calendar from 1583, where that calendar is Gregorian")
    func agreesWithFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let first = CivilDate(year: 1583, month: 1, day: 1).daysSince1970
        for days in stride(from: first, through: 2_932_896, by: 97) {
            let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86_400))
            let date = CivilDate(daysSince1970: days)
            #expect(
                parts.year.map(Int64.init) == date.year && parts.month.map(Int64.init) == date.month
                    && parts.day.map(Int64.init) == date.day, "day \(days): \(date) vs \(parts)")
        }
    }
}
