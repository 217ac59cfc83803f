import AppStoreSimulator
import Foundation
import HTTPClient
import TestSupport
import Testing

/// `subscriptionctl suspicious` and the subscriber JSON's `apple_accounts` over a simulated
/// population: appstore-sim's customers are one Apple account each, and their signed
/// transactions carry that account's `appTransactionId`.
@Suite("Irregular activity: app users fed by many Apple accounts", .serialized)
struct SuspiciousActivityTests {
    private func suspicious(_ service: RunningService) async throws -> [String: Any] {
        let run = try await CLI.run(["suspicious", "--min-apple-accounts", "3", "--json"], databaseURL: service.databaseURL)
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    @Test("an honest population lists nobody; a user fed by three customers' purchases is listed with 3 Apple accounts")
    func feedingOneUser() async throws {
        let world = try await AppStoreAPIEndToEndTests.World.make(
            customers: 10, seed: 20_261_201, scenarios: ScenarioKind.subscriptionLifecycles)
        defer { Task { await world.close() } }
        try await RunningService.with(settings: world.settings, runsWorker: false) { service in
            // Every customer's purchase proven for the customer's own app user (the app's backend vouching for the id).
            let owned = world.simulator.customers.compactMap { customer in
                world.simulator.truth(of: customer).subscriptions.first.map { (customer.id, $0.originalTransactionID) }
            }
            #expect(owned.count >= 6, "\(owned.count) customers with a subscription")
            for (user, id) in owned {
                let linked = try await service.post("/v1/transactions", ["app_user_id": user, "transaction_id": id])
                #expect(linked.status == 200, "\(String(decoding: linked.body, as: UTF8.self))")
                #expect(try jsonObject(linked)["apple_accounts"] as? Int == 1)
            }
            let honest = try await suspicious(service)
            #expect((honest["users"] as? [Any])?.isEmpty == true, "\(honest)")
            #expect((honest["purchases"] as? [Any])?.isEmpty == true, "\(honest)")

            // One app account collects three Apple accounts' subscriptions (shared or resold accounts).
            for (_, id) in owned.prefix(3) {
                let taken = try await service.post("/v1/transactions", ["app_user_id": "mallory", "transaction_id": id])
                #expect(taken.status == 200, "\(String(decoding: taken.body, as: UTF8.self))")
            }
            #expect(try jsonObject(try await service.get("/v1/subscribers/mallory"))["apple_accounts"] as? Int == 3)
            let found = try await suspicious(service)
            let users = try #require(found["users"] as? [[String: Any]])
            #expect(users.map { $0["app_user_id"] as? String } == ["mallory"])
            #expect(users.first?["apple_accounts"] as? Int == 3)
            let table = try await CLI.run(["suspicious"], databaseURL: service.databaseURL)
            #expect(table.status == 0 && table.stdout.contains("mallory"))
        }
    }

    @Test("a purchase linked to three app users (link_policy share) is listed with its users")
    func onePurchaseManyUsers() async throws {
        let world = try await AppStoreAPIEndToEndTests.World.make(
            customers: 2, seed: 20_261_202, scenarios: ScenarioKind.subscriptionLifecycles)
        defer { Task { await world.close() } }
        let config = try TemporaryFile.write(
            #"{"apps":[{"bundle_id":"\#(RunningService.bundleID)","link_policy":"share"}]}"#, name: "share.json")
        defer { try? FileManager.default.removeItem(atPath: config) }
        try await RunningService.with(
            settings: world.settings.merging(["SUBSCRIPTIOND_CONFIG": config]) { _, new in new }, runsWorker: false
        ) { service in
            let customer = try #require(world.simulator.customers.first { !world.simulator.truth(of: $0).subscriptions.isEmpty })
            let id = try #require(world.simulator.truth(of: customer).subscriptions.first).originalTransactionID
            for user in ["u1", "u2", "u3"] {
                #expect(try await service.post("/v1/transactions", ["app_user_id": user, "transaction_id": id]).status == 200)
            }
            let found = try await suspicious(service)
            let purchases = try #require(found["purchases"] as? [[String: Any]])
            #expect(purchases.map { $0["original_transaction_id"] as? String } == [id])
            #expect(purchases.first?["app_user_ids"] as? [String] == ["u1", "u2", "u3"])
            #expect((found["users"] as? [Any])?.isEmpty == true, "one Apple account feeds each of them")
        }
    }
}
