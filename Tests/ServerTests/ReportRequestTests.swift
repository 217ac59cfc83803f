import Access
import Foundation
import HTTPClient
import Postgres
import Testing

/// What a report refuses, and what it never does: answer 500 for odd stored prices.
@Suite("Reports: bad parameters, scopes and odd stored prices")
struct ReportRequestTests {
    @Test("an unknown metric is 404 naming the known ones; bad parameters are 400 naming the parameter; the CLI says the same in one line")
    func badParameters() async throws {
        try await RunningService.with { service in
            func refused(_ path: String) async throws -> (status: Int, message: String) {
                let response = try await service.get(path)
                let body = try jsonObject(response)
                #expect(body["error"] is String)
                return (response.status, body["message"] as? String ?? "")
            }
            let unknown = try await refused("/v1/reports/ltv")
            #expect(
                unknown.status == 404 && unknown.message.contains("ltv")
                    && unknown.message.contains("active_subscriptions, active_trials, mrr"))
            let backwards = try await refused("/v1/reports/mrr?from=2026-11-02&to=2026-11-01")
            #expect(backwards.status == 400 && backwards.message.contains("from (2026-11-02) is after to (2026-11-01)"))
            let long = try await refused("/v1/reports/mrr?from=2020-01-01&to=2026-11-01&interval=day")
            #expect(long.status == 400 && long.message.contains("interval day covers at most"))
            #expect(try await service.get("/v1/reports/mrr?from=2020-01-01&to=2026-11-01&interval=month").status == 200)
            let grouping = try await refused("/v1/reports/mrr?group_by=country")
            #expect(grouping.status == 400 && grouping.message.contains("group_by must be one of product, storefront, app"))
            let interval = try await refused("/v1/reports/mrr?interval=year")
            #expect(interval.status == 400 && interval.message.contains("interval must be one of day, week, month"))
            let day = try await refused("/v1/reports/mrr?from=2026-02-30")
            #expect(day.status == 400 && day.message.contains("from must be a day such as 2026-11-01"))
            let unknownParameter = try await refused("/v1/reports/mrr?form=2026-01-01")
            #expect(unknownParameter.status == 400 && unknownParameter.message.contains("unknown parameter \"form\""))
            let proceeds = try await refused("/v1/reports/churn?amount=proceeds")
            #expect(proceeds.status == 400 && proceeds.message.contains("amount must be price or proceeds (for mrr and arr only)"))

            // The reports scope reads them; read alone does not; an app-limited key names its app.
            let reader = try await APIKeysTests.key("reader", [.read], on: service)
            let analyst = try await APIKeysTests.key("analyst", [.reports], on: service)
            let limited = try await APIKeysTests.key(
                "limited", [.reports], apps: [RunningService.bundleID, APIKeysTests.otherApp], on: service)
            #expect(try await service.get("/v1/reports/mrr", token: reader).status == 403)
            #expect(try await service.get("/v1/reports/mrr", token: analyst).status == 200)
            #expect(try await service.get("/v1/reports/mrr", token: limited).status == 403)
            #expect(try await service.get("/v1/reports/mrr?app=\(RunningService.bundleID)", token: limited).status == 200)
            #expect(try await service.get("/v1/reports/mrr?app=com.example.elsewhere", token: limited).status == 403)

            let cli = try await CLI.run(["report", "ltv"], databaseURL: service.databaseURL)
            #expect(cli.status == 2 && cli.stderr.contains("unknown metric \"ltv\"") && cli.stderr.split(separator: "\n").count == 1)
            let cliDay = try await CLI.run(
                ["report", "mrr", "--from", "2026-11-02", "--to", "2026-11-01"], databaseURL: service.databaseURL)
            #expect(cliDay.status == 2 && cliDay.stderr.contains("is after to"))
        }
    }

    @Test("purchases with a zero, absent or huge price are counted, named in warnings, and never answer 500")
    func oddStoredPrices() async throws {
        try await RunningService.with { service in
            // Stored rows as a damaged or hand-edited database might hold them.
            let now = Date()
            for (id, price) in [("odd-zero", "0"), ("odd-absent", "NULL"), ("odd-huge", "9223372036854775807")] {
                _ = try await service.database.execute(
                    PostgresQuery(
                        sql: """
                            INSERT INTO transactions (environment, transaction_id, original_transaction_id, bundle_id, product_id,
                                subscription_group_id, purchase_date, expires_date, product_type, price_milliunits, currency, storefront, source)
                            VALUES ('Production', '\(id)', '\(id)', '\(RunningService.bundleID)', 'com.example.unlisted', '1',
                                $1, $2, 'auto_renewable', \(price), 'USD', 'USA', 'v2')
                            """,
                        bindings: [now.addingTimeInterval(-86_400).postgresValue, now.addingTimeInterval(29 * 86_400).postgresValue]))
            }
            _ = try await service.database.execute(
                "INSERT INTO report_changes (environment, original_transaction_id) SELECT 'Production', transaction_id FROM transactions")
            let deadline = ContinuousClock.now + .seconds(30)
            while try await service.database.query("SELECT 1 FROM report_changes").count > 0 {
                guard ContinuousClock.now < deadline else { throw CancellationError() }
                try await Task.sleep(for: .milliseconds(100))
            }
            for metric in ["revenue", "proceeds", "mrr", "arr", "refund_rate", "active_subscriptions"] {
                let response = try await service.get("/v1/reports/\(metric)")
                #expect(response.status == 200, "\(metric): \(String(decoding: response.body, as: UTF8.self))")
            }
            let revenue = try jsonObject(try await service.get("/v1/reports/revenue"))
            let warnings = try #require(revenue["warnings"] as? [String])
            #expect(
                warnings.count == 1 && warnings[0].contains("1 paid transaction(s) with no price") && warnings[0].contains("odd-absent"))
            let points = try #require(revenue["points"] as? [[String: Any]])
            #expect(points.compactMap { $0["value"] as? Double }.max() ?? 0 > 9e15, "the huge price is counted, not dropped")
        }
    }
}
