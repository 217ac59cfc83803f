import Access
import AppStoreSimulator
import ContractDocuments
import Foundation
import HTTPClient
import Postgres
import Settings
import Store
import Subscriptions
import Testing
import UseCases

/// The stored rollups against the definition: appstore-sim's random and named customers (v1,
/// v2 and migrating; four currencies) delivered shuffled and twice through the real intake, counted by the rollup
/// job, answer every metric as ``ReportEvaluator`` computes it from the stored facts; late
/// refunds correct the days they belong to; a rebuild finds nothing to change; the CLI
/// prints the HTTP answer.
@Suite("Report rollups against a real database", .serialized)
struct ReportRollupTests {
    static let seed: UInt64 = 20_261_127
    static let rates = "date,currency,rate\n2020-01-01,EUR,1.08\n2020-01-01,GBP,1.27\n2026-06-01,EUR,1.12\n"

    /// Every metric over a long, a middle and a short range at each interval, some grouped,
    /// filtered or in proceeds.
    static func queries(today: Date) -> [[String: String]] {
        let day = { (offset: Int) in UTCDay.text(today.addingTimeInterval(Double(offset) * 86_400)) }
        return [
            ["from": day(-420), "to": day(0), "interval": "month", "group_by": "product"],
            ["from": day(-150), "to": day(0), "interval": "week", "group_by": "storefront"],
            ["from": day(-60), "to": day(0), "interval": "day"],
            ["from": day(-400), "to": day(-10), "interval": "month", "group_by": "app"],
        ]
    }

    @Test("rollups equal the definition after a shuffled delivery; late refunds correct their days; rebuild agrees; CLI equals HTTP")
    func rollupsEqualTheDefinition() async throws {
        let simulator = AppStoreSimulator(configuration: .demo(seed: Self.seed, sharedSecret: RunningService.sharedSecret))
        try simulator.addRandomCustomers(150, seed: Self.seed, notificationVersions: .mixed)
        // The named customers too: prices in euros, pounds and yen (no rate for yen below),
        // over a year of paid service, a 90-day lapse, prorated and full refunds.
        try simulator.addDemoCustomers(notificationVersions: .mixed)
        let setup = try await SignedSimulatorSetup.start(simulator)
        defer { Task { await setup.shutdown() } }
        let settings = setup.settings
        try await RunningService.with(settings: settings) { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            let ratesFile = try TemporaryFile.write(Self.rates, name: "rates.csv")
            #expect(try await CLI.run(["rates", "import", ratesFile], databaseURL: service.databaseURL).status == 0)

            // Late facts: every customer's life from its first refund on waits until the rest is counted.
            let notifications = simulator.notifications()
            var refundedFrom: [String: Int] = [:]
            for notification in notifications where notification.type == .refund || notification.typeV2?.notificationType == "REFUND" {
                refundedFrom[notification.customerID] = min(refundedFrom[notification.customerID] ?? .max, notification.sequence)
            }
            #expect(!refundedFrom.isEmpty, "the population must hold refunds")
            let late = notifications.filter { notification in
                refundedFrom[notification.customerID].map { notification.sequence >= $0 } ?? false
            }
            let early = notifications.filter { notification in
                refundedFrom[notification.customerID].map { notification.sequence < $0 } ?? true
            }
            try await deliver(early, to: service)

            let today = UTCDay.floor(Date())
            let refundsBefore = try await answer(service, "refund_rate", Self.queries(today: today)[0])
            try await expectAgreement(service, today: today)

            try await deliver(late, to: service)
            try await expectAgreement(service, today: today)
            let refundsAfter = try await answer(service, "refund_rate", Self.queries(today: today)[0])
            #expect(refundsAfter != refundsBefore, "the late refunds changed the months of their purchases")

            // The next renewal's price, as the simulator's signed renewal info states it.
            let renewing = try #require(
                try await service.database.query(
                    """
                    SELECT original_transaction_id, renewal_price_milliunits, renewal_currency FROM renewal_info
                    WHERE renewal_price_milliunits IS NOT NULL AND environment = 'Production' LIMIT 1
                    """
                ).first, "signed renewal info states renewalPrice")
            let id: String = try renewing.decode("original_transaction_id")
            let milliunits: Int64 = try renewing.decode("renewal_price_milliunits")
            let subscription = try jsonObject(try await service.get("/v1/subscriptions/\(id)"))
            #expect(subscription["renewal_price"] as? String == PurchaseMoney.text(Decimal(milliunits) / 1000))
            #expect(subscription["renewal_currency"] as? String == (try renewing.decode("renewal_currency", as: String.self)))

            // A rebuild recounts every chain and finds every day sum right.
            let rebuilt = try await CLI.run(["reports", "rebuild"], databaseURL: service.databaseURL, environment: service.environment)
            #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
            #expect(rebuilt.stdout.contains("; 0 day sums differed from those kept"), "\(rebuilt.stdout)")

            // The CLI prints what the API answers.
            let query = Self.queries(today: today)[0]
            let cli = try await CLI.run(
                ["report", "mrr", "--from", query["from"]!, "--to", query["to"]!, "--interval", "month", "--by", "product", "--json"],
                databaseURL: service.databaseURL, environment: service.environment)
            #expect(cli.status == 0, "\(cli.stderr)")
            let http = try await answer(service, "mrr", query)
            #expect(try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? NSDictionary == http)
            let table = try await CLI.run(
                ["report", "active_subscriptions", "--from", query["from"]!, "--to", query["to"]!, "--interval", "month"],
                databaseURL: service.databaseURL, environment: service.environment)
            #expect(table.stdout.contains("ACTIVE_SUBSCRIPTIONS") && table.stdout.contains("█"), "\(table.stdout)")
        }
    }

    private func deliver(_ notifications: [SimNotification], to service: RunningService) async throws {
        let plan = DeliveryPlan.order(notifications, duplicates: 2, shuffle: true, seed: Self.seed)
        let target = try #require(URL(string: service.baseURL + "/notifications/appstore"))
        let report = await NotificationSender(target: target, retry: .persistent, timeout: .seconds(60), concurrency: 8).deliver(plan)
        #expect(report.failed.isEmpty, "\(report.failureSummary)")
        try await service.waitUntilSettled(timeout: .seconds(300))
        try await waitUntilCounted(service)
    }

    /// Waits until the rollup job has counted every changed chain.
    private func waitUntilCounted(_ service: RunningService) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            let row = try await service.database.query(
                "SELECT (SELECT count(*) FROM report_changes) AS waiting, (SELECT count(*) FROM report_rollup_state) AS counted")[0]
            if try row.decode("waiting", as: Int.self) == 0, try row.decode("counted", as: Int.self) == 1 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the rollup job did not count every change within 120 s")
    }

    private func answer(_ service: RunningService, _ metric: String, _ parameters: [String: String]) async throws -> NSDictionary {
        let query = parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        let response = try await service.get("/v1/reports/\(metric)?\(query)")
        #expect(response.status == 200, "\(metric)?\(query): \(String(decoding: response.body, as: UTF8.self))")
        return try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? NSDictionary)
    }

    /// Every metric of every query answers as the definition does over the stored facts.
    private func expectAgreement(_ service: RunningService, today: Date) async throws {
        let catalog = try await ProductStore(client: service.database).catalog()
        let basis = ReportBasis(catalog: catalog, money: MoneySettings())
        let rates = ExchangeRates(reportCurrency: "USD", rates: try await ExchangeRateStore(client: service.database).rates(quote: "USD"))
        let pricing = ReportPricing(
            price: basis.pricing.price, period: basis.pricing.period, convert: { rates.convert($0, $1, on: $2) },
            taxRates: basis.pricing.taxRates, smallBusiness: basis.pricing.smallBusiness)
        let chains = try #require(
            try await ReportRollupStore(client: service.database).withCounter(wait: true) { counter in
                var chains: [ReportedSubscription] = []
                var cursor: ReportRollupStore.ChainKey?
                while true {
                    let keys = try counter.chains(after: cursor, limit: 1_000)
                    guard let last = keys.last else { break }
                    chains += try counter.facts(of: keys, isAutoRenewable: basis.isAutoRenewable)
                    cursor = last
                }
                return chains
            })
        #expect(chains.count > 100)
        let now = Date()
        let evaluator = ReportEvaluator(pricing: pricing, now: now)
        var compared = 0
        for parameters in Self.queries(today: today) {
            for metric in ReportMetric.allCases {
                var asked = parameters
                if metric == .mrr, parameters["interval"] == "week" { asked["amount"] = "proceeds" }
                let query = try Reports.query(metric: metric.rawValue, parameters: asked, apps: .all, now: now)
                let expected =
                    try JSONSerialization.jsonObject(
                        with: ContractJSON.encode(ReportDocument(answer: evaluator.answer(query, over: chains), currency: "USD")))
                    as? NSDictionary
                let actual = try await answer(service, metric.rawValue, asked)
                #expect(actual == expected, "\(metric.rawValue) \(asked): \(Self.difference(actual, expected))")
                compared += 1
            }
        }
        #expect(compared == ReportMetric.allCases.count * Self.queries(today: today).count)
        // The population is one the definitions tell apart on: several currencies, one without a rate.
        let currencies = try await service.database.query("SELECT DISTINCT currency FROM transactions WHERE currency IS NOT NULL")
        #expect(currencies.count >= 3, "\(currencies.count) currencies")
        let revenue = try await answer(service, "revenue", Self.queries(today: today)[0])
        #expect(revenue["missing_rates"] as? [String] == ["JPY"])
        // The population is one the definitions tell apart on.
        let actives = try await answer(service, "active_subscriptions", Self.queries(today: today)[0])
        let points = try #require(actives["points"] as? [[String: Any]])
        #expect(points.contains { ($0["value"] as? Double ?? 0) > 0 })
    }

    /// The first point (or field) two answers differ in, for a failure's message.
    static func difference(_ actual: NSDictionary, _ expected: NSDictionary?) -> String {
        guard let expected else { return "no expected answer" }
        let actualPoints = actual["points"] as? [NSDictionary] ?? []
        let expectedPoints = expected["points"] as? [NSDictionary] ?? []
        for (index, point) in actualPoints.enumerated() where index < expectedPoints.count && point != expectedPoints[index] {
            return "point \(index): rollups \(point) definition \(expectedPoints[index])"
        }
        for key in Set(actual.allKeys.compactMap { $0 as? String }).union(expected.allKeys.compactMap { $0 as? String }).sorted()
        where key != "points" && (actual[key] as? NSObject) != (expected[key] as? NSObject) {
            return "\(key): rollups \(actual[key] ?? "none") definition \(expected[key] ?? "none")"
        }
        return "\(actualPoints.count) points, \(expectedPoints.count) expected"
    }
}
