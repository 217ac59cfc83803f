import Access
import AppStoreSimulator
import Foundation
import HTTPClient
import Postgres
import TestSupport
import Testing

/// Finish Transaction (API 1.20) through subscriptiond against appstore-sim: with
/// `finish_transactions`, a non-consumable is finished once applied, a consumable once the
/// app's backend confirms delivery (`POST /v1/purchases/{id}/delivered`), across Apple's 503s,
/// and `subscriber show` says so; an app without it finishes nothing.
@Suite("Finish Transaction: finish_transactions, POST /v1/purchases/{id}/delivered and retries")
struct FinishTransactionTests {
    /// `SUBSCRIPTIOND_CONFIG` giving the simulator's app `finish_transactions` (the key comes from the environment).
    static func config(finishes: Bool) throws -> String {
        try TemporaryFile.write(
            #"{"apps":[{"bundle_id":"\#(RunningService.bundleID)","finish_transactions":\#(finishes)}]}"#, name: "finish-config.json")
    }

    static func finishes(_ service: RunningService) async throws -> [String: (state: String, attempts: Int)] {
        var result: [String: (state: String, attempts: Int)] = [:]
        for row in try await service.database.query("SELECT transaction_id, state, attempts FROM transaction_finishes") {
            result[try row.decode("transaction_id")] = (try row.decode("state"), try row.decode("attempts"))
        }
        return result
    }

    @Test("a lifetime unlock is finished once applied; coins once delivered, retried across 503s; subscriber show says so")
    func finishes() async throws {
        let world = try await AppStoreAPIEndToEndTests.World.make(customers: 0, seed: 20_261_129, scenarios: [.lifetime])
        defer { Task { await world.close() } }
        _ = try world.simulator.addCustomers([
            CustomerSpec(name: "lena-lifetime", scenario: .lifetime, productID: "com.example.pro.lifetime", notificationVersion: .v2),
            CustomerSpec(name: "cole-coins", scenario: .consumable, productID: "com.example.coins.100", notificationVersion: .v2),
        ])
        let config = try Self.config(finishes: true)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let settings = world.settings.merging(["SUBSCRIPTIOND_CONFIG": config]) { _, new in new }
        try await RunningService.with(settings: settings, prepare: ReceiptsAndEligibilityTests.importDemoCatalog) { service in
            let target = try #require(URL(string: service.baseURL + "/notifications/appstore"))
            let plan = DeliveryPlan.order(world.simulator.notifications(), duplicates: 1, shuffle: false, seed: 1)
            let report = await NotificationSender(target: target, retry: .persistent, timeout: .seconds(60), concurrency: 2).deliver(plan)
            #expect(report.failed.isEmpty, "\(report.failureSummary)")
            try await service.waitUntilSettled(timeout: .seconds(60))
            let purchases: [(id: String, product: String)] = try await service.database.query(
                "SELECT transaction_id, product_id FROM transactions ORDER BY product_id"
            ).map { (try $0.decode("transaction_id"), try $0.decode("product_id")) }
            let coins = try #require(purchases.first { $0.product == "com.example.coins.100" }?.id)
            let lifetime = try #require(purchases.first { $0.product == "com.example.pro.lifetime" }?.id)

            // The lifetime unlock is finished by itself; the coins wait for their delivery.
            #expect(try await Polling.until(seconds: 20) { world.simulator.finishedTransactions().contains(lifetime) })
            #expect(try await Polling.until(seconds: 10) { try await Self.finishes(service)[lifetime]?.state == "finished" })
            #expect(try await Self.finishes(service)[coins]?.state == "awaiting_delivery")
            #expect(!world.simulator.finishedTransactions().contains(coins))

            // A key limited to another app confirms nothing: 404, and the coins still wait.
            let foreign = try await APIKeysTests.key("other-backend", [.write], apps: [APIKeysTests.otherApp], on: service)
            #expect(try await APIKeysTests.send(service, .post, "/v1/purchases/\(coins)/delivered", "{}", token: foreign).status == 404)
            #expect(try await Self.finishes(service)[coins]?.state == "awaiting_delivery")

            // Apple answers 503 to the first call (all of the client's own tries): retried later, then taken.
            world.simulator.failNext(3, with: .http503)
            let delivered = try await service.post("/v1/purchases/\(coins)/delivered", [:])
            #expect(delivered.status == 200, "\(String(decoding: delivered.body, as: UTF8.self))")
            #expect(try jsonObject(delivered)["finish"] as? String == "due")
            #expect(try await Polling.until(seconds: 40) { try await Self.finishes(service)[coins]?.state == "finished" })
            #expect((try await Self.finishes(service)[coins]?.attempts ?? 0) >= 2, "the 503 cost an attempt")
            #expect(world.simulator.finishedTransactions().filter { $0 == coins }.count == 1)
            // Confirming again answers the finish as it is, and sends nothing more.
            let again = try jsonObject(try await service.post("/v1/purchases/\(coins)/delivered", [:]))
            #expect(again["finish"] as? String == "finished")
            #expect(try await service.post("/v1/purchases/999999/delivered", [:]).status == 404)

            // subscriber show has a FINISH column: link the coins to their buyer, then ask.
            let linked = try await service.post("/v1/transactions", ["app_user_id": "cole", "transaction_id": coins])
            #expect(linked.status == 200 || linked.status == 202, "\(String(decoding: linked.body, as: UTF8.self))")
            #expect(try await Polling.until(seconds: 20) { try await service.get("/v1/subscribers/cole").status == 200 })
            let cli = try await CLI.run(["subscriber", "show", "cole"], databaseURL: service.databaseURL, environment: service.environment)
            #expect(cli.status == 0, "\(cli.stderr)")
            let row = cli.stdout.split(separator: "\n").first { $0.contains(coins) }.map(String.init) ?? ""
            #expect(cli.stdout.contains("FINISH") && row.contains("finished"), "\(cli.stdout)")
        }
    }

    @Test("without finish_transactions nothing is queued, and delivered answers 409 not_configured")
    func notConfigured() async throws {
        let world = try await AppStoreAPIEndToEndTests.World.make(customers: 0, seed: 20_261_130, scenarios: [.consumable])
        defer { Task { await world.close() } }
        _ = try world.simulator.addCustomers([
            CustomerSpec(name: "cole-coins", scenario: .consumable, productID: "com.example.coins.100", notificationVersion: .v2)
        ])
        try await RunningService.with(settings: world.settings, prepare: ReceiptsAndEligibilityTests.importDemoCatalog) { service in
            let target = try #require(URL(string: service.baseURL + "/notifications/appstore"))
            let plan = DeliveryPlan.order(world.simulator.notifications(), duplicates: 1, shuffle: false, seed: 1)
            _ = await NotificationSender(target: target, retry: .persistent, timeout: .seconds(60), concurrency: 1).deliver(plan)
            try await service.waitUntilSettled(timeout: .seconds(60))
            let coins: String = try await service.database.query("SELECT transaction_id FROM transactions LIMIT 1")[0].decode(
                "transaction_id")
            #expect(try await Self.finishes(service).isEmpty)
            let refused = try await service.post("/v1/purchases/\(coins)/delivered", [:])
            #expect(refused.status == 409)
            #expect(try jsonObject(refused)["error"] as? String == "not_configured")
            #expect(world.simulator.finishedTransactions().isEmpty)
        }
    }
}
