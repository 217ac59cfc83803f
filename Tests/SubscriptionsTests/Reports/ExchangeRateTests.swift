import CatalogFiles
import Foundation
import Subscriptions
import Testing

@Suite("Exchange rates: the file and the conversion")
struct ExchangeRateTests {
    typealias F = ReportFixtures

    @Test("a good file reads; header case and spaces do not matter")
    func goodFile() throws {
        let rates = try ExchangeRateFile.parse("Date, Currency, Rate\n2026-01-01,EUR,1.10\n2026-01-05, GBP ,1.25\n", reportCurrency: "USD")
            .get()
        #expect(
            rates == [
                ExchangeRate(day: F.day(0), currency: "EUR", rate: Decimal(string: "1.10")!),
                ExchangeRate(day: F.day(4), currency: "GBP", rate: Decimal(string: "1.25")!),
            ])
    }

    @Test("a file with bad rows is refused whole, each problem naming its line")
    func badFile() {
        let text = """
            date,currency,rate
            2026-01-01,EUR,1.10
            2026-02-30,EUR,1.10
            2026-01-02,euro,1.10
            2026-01-03,GBP,-1
            2026-01-04,GBP,1,2
            2026-01-01,EUR,1.20
            2026-01-05,USD,1
            2026-01-06,JPY,0
            """
        guard case .failure(let problems) = ExchangeRateFile.parse(text, reportCurrency: "USD") else {
            Issue.record("the file was accepted")
            return
        }
        #expect(
            problems.lines == [
                "line 3: date \"2026-02-30\" is not a day such as 2026-11-01",
                "line 4: currency \"euro\" is not three upper-case letters such as EUR",
                "line 5: rate \"-1\" is not a positive decimal such as 1.0834",
                "line 6: expected 3 fields (date,currency,rate), found 4",
                "line 7: EUR on 2026-01-01 is given again (first on line 2)",
                "line 8: USD is the report currency (REPORT_CURRENCY): it needs no rate",
                "line 9: rate \"0\" is not a positive decimal such as 1.0834",
            ])
        #expect(throws: CatalogProblems.self) { try ExchangeRateFile.parse("currency,rate\nEUR,1\n", reportCurrency: "USD").get() }
        #expect(throws: CatalogProblems.self) { try ExchangeRateFile.parse("date,currency,rate\n", reportCurrency: "USD").get() }
        #expect(throws: CatalogProblems.self) { try ExchangeRateFile.parse("", reportCurrency: "USD").get() }
    }

    @Test("an amount converts at the newest rate on or before its day; none before it is no answer; the report currency is itself")
    func conversion() {
        let rates = ExchangeRates(
            reportCurrency: "USD",
            rates: [
                ExchangeRate(day: F.day(10), currency: "EUR", rate: 2), ExchangeRate(day: F.day(0), currency: "EUR", rate: 1),
                ExchangeRate(day: F.day(20), currency: "EUR", rate: 3),
            ])
        #expect(rates.convert(10, "EUR", on: F.day(0)) == 10)
        #expect(rates.convert(10, "EUR", on: F.day(15.5)) == 20)
        #expect(rates.convert(10, "EUR", on: F.day(20)) == 30)
        #expect(rates.convert(10, "EUR", on: F.day(-1)) == nil)
        #expect(rates.convert(10, "GBP", on: F.day(5)) == nil)
        #expect(rates.convert(10, "USD", on: F.day(-100)) == 10)
    }
}
