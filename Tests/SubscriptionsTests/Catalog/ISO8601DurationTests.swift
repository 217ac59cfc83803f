import Foundation
import Subscriptions
import Testing

@Suite("ISO 8601 durations")
struct ISO8601DurationTests {
    @Test(
        "parses App Store periods",
        arguments: [
            ("P1W", 7), ("P3D", 3), ("P1M", 30), ("P2M", 60), ("P3M", 90), ("P6M", 180),
            ("P1Y", 365), ("P7D", 7), ("P14D", 14), ("P1Y6M", 545), ("P2W3D", 17),
        ])
    func parses(text: String, days: Int) throws {
        let duration = try #require(ISO8601Duration(text))
        #expect(duration.approximateDays == days)
        #expect(duration.description == text)
    }

    @Test(
        "rejects",
        arguments: [
            "", "P", "1M", "PM", "P0D", "P0Y0M", "P-1M", "P1.5M", "P1H", "PT1H", "P1DT12H", "P1M1Y",
            "P1D1D", "P 1M", " P1M", "P1M ", "P1X", "abc", "P1W1Y", "P99999999999D", "P１M",
        ])
    func rejects(text: String) {
        #expect(ISO8601Duration(text) == nil)
    }

    @Test func lowercaseDesignatorsAreReadAndPrintedCanonically() {
        #expect(ISO8601Duration("p1m")?.description == "P1M")
    }

    @Test func samePeriodIsCalendarEquality() throws {
        let week = try #require(ISO8601Duration("P1W"))
        let sevenDays = try #require(ISO8601Duration("P7D"))
        #expect(week != sevenDays)  // equality is by components as written
        #expect(week.isSamePeriod(as: sevenDays))
        #expect(ISO8601Duration("P1Y")!.isSamePeriod(as: ISO8601Duration("P12M")!))
        #expect(!ISO8601Duration("P1M")!.isSamePeriod(as: ISO8601Duration("P30D")!))
        #expect(!ISO8601Duration("P1M")!.isSamePeriod(as: ISO8601Duration("P4W")!))
    }

    @Test func lengthsCompareExactlyWhenOnePartAgrees() {
        let year = ISO8601Duration(years: 1)!
        #expect(ISO8601Duration("P12M5D")!.isLonger(than: year))
        #expect(!ISO8601Duration("P12M")!.isLonger(than: year))
        #expect(!ISO8601Duration("P12M")!.isShorter(than: year))
        #expect(ISO8601Duration("P11M")!.isShorter(than: year))
        #expect(ISO8601Duration("P366D")!.isLonger(than: year))
        #expect(!ISO8601Duration("P52W")!.isLonger(than: year))
        #expect(ISO8601Duration("P53W")!.isLonger(than: year))
        #expect(ISO8601Duration("P2D")!.isShorter(than: ISO8601Duration(days: 3)!))
        #expect(!ISO8601Duration("P3D")!.isShorter(than: ISO8601Duration(days: 3)!))
    }

    @Test func componentsAndRepetition() {
        #expect(ISO8601Duration(years: 0, months: 0) == nil)
        #expect(ISO8601Duration(days: -1) == nil)
        #expect(ISO8601Duration("P1M")!.repeated(3) == ISO8601Duration("P3M"))
        #expect(ISO8601Duration("P1M")!.repeated(0) == nil)
        #expect(ISO8601Duration("P1Y2M")!.totalMonths == 14)
        #expect(ISO8601Duration("P2W3D")!.totalDays == 17)
    }

    @Test func codableAsText() throws {
        let data = try JSONEncoder().encode([ISO8601Duration("P1W")!])
        #expect(String(decoding: data, as: UTF8.self) == #"["P1W"]"#)
        #expect(try JSONDecoder().decode([ISO8601Duration].self, from: Data(#"["P3M"]"#.utf8)) == [ISO8601Duration("P3M")!])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([ISO8601Duration].self, from: Data(#"["PT1H"]"#.utf8)) }
    }
}
