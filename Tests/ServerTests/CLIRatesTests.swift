import Foundation
import Postgres
import TestSupport
import Testing

@Suite("subscriptionctl rates against a real database")
struct CLIRatesTests {
    @Test("rates import adds and replaces, rates list shows them; a bad file exits 1 naming its lines and changes nothing")
    func importAndList() async throws {
        try await TestDatabase.withClient { database, testDatabase in
            let good = try TemporaryFile.write("date,currency,rate\n2026-11-01,EUR,1.0834\n2026-11-01,GBP,1.2611\n", name: "rates.csv")
            let imported = try await CLI.run(["rates", "import", good], databaseURL: testDatabase.url)
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stdout.contains("imported rates into USD: 2 added, 0 replaced"))
            let again = try TemporaryFile.write("date,currency,rate\n2026-11-01,EUR,1.09\n2026-11-02,EUR,1.1\n", name: "rates.csv")
            #expect(try await CLI.run(["rates", "import", again], databaseURL: testDatabase.url).stdout.contains("1 added, 1 replaced"))
            let listed = try await CLI.run(["rates", "list", "--json"], databaseURL: testDatabase.url)
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: String]])
            #expect(
                rows.map { "\($0["date"]!) \($0["currency"]!) \($0["rate"]!)" } == [
                    "2026-11-01 EUR 1.09", "2026-11-02 EUR 1.1", "2026-11-01 GBP 1.2611",
                ])

            let bad = try TemporaryFile.write("date,currency,rate\n2026-11-03,CHF,1.13\n2026-11-03,chf,1.13\n", name: "bad.csv")
            let refused = try await CLI.run(["rates", "import", bad], databaseURL: testDatabase.url)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("line 3: currency \"chf\" is not three upper-case letters"))
            #expect(refused.stderr.contains("1 problem; nothing was imported"))
            #expect(try await database.query("SELECT 1 FROM exchange_rates WHERE currency = 'CHF'").isEmpty)

            let euro = try await CLI.run(["rates", "list"], databaseURL: testDatabase.url, environment: ["REPORT_CURRENCY": "EUR"])
            #expect(euro.stdout.contains("no exchange rates into EUR"))
            let wrong = try await CLI.run(["rates", "list"], databaseURL: testDatabase.url, environment: ["REPORT_CURRENCY": "dollars"])
            #expect(wrong.status == 2 && wrong.stderr.contains("REPORT_CURRENCY must be three upper-case letters"))
        }
    }
}
