import AppStoreSimulator
import Foundation
import HTTPClient
import Postgres
import Testing

/// Monthly-billed subscriptions with a 12-month commitment (App Store Server API 1.21):
/// appstore-sim signs each monthly charge with `billingPlanType` MONTHLY and its
/// `commitmentInfo`; subscriptiond keeps both, shows `billing_plan` and `commitment_ends_at`,
/// and counts the monthly charge in MRR.
@Suite("Commitment billing: monthly charges of a 12-month commitment, end to end")
struct CommitmentBillingTests {
    @Test("a v2 subscriber billed monthly through a commitment: billing_plan, commitment_ends_at and MRR at the monthly price")
    func monthlyCommitment() async throws {
        var configuration = SimulatorConfiguration.demo(seed: 41, sharedSecret: RunningService.sharedSecret)
        let product = "com.example.premium.monthly"
        let index = try #require(configuration.catalog.products.firstIndex { $0.productID == product })
        configuration.catalog.products[index].commitmentPeriods = 12
        let monthly = configuration.catalog.products[index].price
        let simulator = AppStoreSimulator(configuration: configuration)
        _ = try simulator.addCustomers([
            CustomerSpec(name: "celia-commitment", scenario: .trialRenews, productID: product, renewals: 3, notificationVersion: .v2),
            CustomerSpec(name: "uli-upfront", scenario: .trialRenews, productID: product, renewals: 1, notificationVersion: .v1),
        ])
        let setup = try await SignedSimulatorSetup.start(simulator)
        defer { Task { await setup.shutdown() } }
        try await RunningService.with(settings: setup.settings) { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            let target = try #require(URL(string: service.baseURL + "/notifications/appstore"))
            let plan = DeliveryPlan.order(simulator.notifications(), duplicates: 1, shuffle: false, seed: 41)
            let report = await NotificationSender(target: target, retry: .persistent, timeout: .seconds(60), concurrency: 4).deliver(plan)
            #expect(report.failed.isEmpty, "\(report.failureSummary)")
            try await service.waitUntilSettled(timeout: .seconds(120))

            // celia's purchases are signed (v2), uli's come as version 1 receipts.
            let original: String = try #require(
                try await service.database.query("SELECT DISTINCT original_transaction_id AS id FROM transactions WHERE source = 'v2'")
                    .first
            ).decode("id")
            let subscription = try jsonObject(try await service.get("/v1/subscriptions/\(original)"))
            #expect(subscription["billing_plan"] as? String == "monthly_commitment")
            let ends = try #require(subscription["commitment_ends_at"] as? String)
            let transactions = try #require(subscription["transactions"] as? [[String: Any]])
            let first = try #require(transactions.first?["purchase_date"] as? String)
            // Twelve monthly periods after the first purchase.
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            func date(_ text: String) -> Date? { formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text) }
            let start = try #require(date(first))
            let end = try #require(date(ends))
            let months = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: start)
            var twelve = months
            twelve.month = (months.month ?? 1) + 12
            let expected = try #require(Calendar(identifier: .gregorian).date(from: twelve))
            #expect(abs(end.timeIntervalSince(expected)) < 1, "commitment ends \(ends), expected twelve months after \(first)")
            #expect(subscription["status"] as? String == "active")

            // A v1 customer of the same product: Apple names no plan.
            let upfront: String = try #require(
                try await service.database.query("SELECT DISTINCT original_transaction_id AS id FROM transactions WHERE source = 'v1'")
                    .first
            ).decode("id")
            let other = try jsonObject(try await service.get("/v1/subscriptions/\(upfront)"))
            #expect(other["billing_plan"] as? String == "upfront")
            #expect(other["commitment_ends_at"] is NSNull)

            let stored = try await service.database.query(
                "SELECT billing_plan_type FROM transactions WHERE original_transaction_id = \(original)")
            #expect(try stored.allSatisfy { try $0.decode("billing_plan_type", as: String?.self) == "MONTHLY" })

            // MRR counts a commitment's monthly charge whatever the catalog's period: with the
            // product made yearly, uli's period counts a twelfth, celia's charge in full.
            try await service.database.execute("UPDATE products SET period = 'P1Y' WHERE product_id = \(product)")
            let price = try #require(Decimal(string: monthly))
            let expectedMRR = price + price / 12
            let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
            var value: Decimal?
            for _ in 0..<60 {
                let answer = try jsonObject(try await service.get("/v1/reports/mrr?from=\(today)&to=\(today)"))
                let points = answer["points"] as? [[String: Any]] ?? []
                value = (points.last?["value"] as? NSNumber).map { $0.decimalValue }
                if let value, abs(NSDecimalNumber(decimal: value - expectedMRR).doubleValue) < 0.01 { break }
                try await Task.sleep(for: .milliseconds(500))
            }
            let mrr = try #require(value)
            #expect(abs(NSDecimalNumber(decimal: mrr - expectedMRR).doubleValue) < 0.01, "MRR \(mrr), expected \(expectedMRR)")
        }
    }
}
