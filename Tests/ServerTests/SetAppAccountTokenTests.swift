import AppStoreSimulator
import Foundation
import HTTPClient
import Postgres
import Testing

/// Set App Account Token (API 1.16) through subscriptiond: a purchase made outside the app
/// reaches its user once the app names the user, as if it had been bought with the token.
@Suite("Set App Account Token: PUT /v1/subscriptions/{id}/app-account-token and the CLI against appstore-sim")
struct SetAppAccountTokenTests {
    @Test("a purchase with no token is linked to the user named; unknown purchases are 404; the CLI does the same")
    func setsTokenAndLinks() async throws {
        let world = try await AppStoreAPIEndToEndTests.World.make(customers: 0, seed: 20_261_128, scenarios: [.trialRenews])
        defer { Task { await world.close() } }
        // Two customers who bought outside the app: their purchases carry no app account token.
        _ = try world.simulator.addCustomers([
            CustomerSpec(
                name: "olly-offer-code", scenario: .trialRenews, productID: "com.example.pro.monthly", renewals: 1,
                notificationVersion: .v2),
            CustomerSpec(
                name: "pia-app-store", scenario: .trialRenews, productID: "com.example.pro.monthly", renewals: 1, notificationVersion: .v2),
        ])
        try await RunningService.with(settings: world.settings) { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            let target = try #require(URL(string: service.baseURL + "/notifications/appstore"))
            let plan = DeliveryPlan.order(world.simulator.notifications(), duplicates: 1, shuffle: false, seed: 1)
            let report = await NotificationSender(target: target, retry: .persistent, timeout: .seconds(60), concurrency: 2).deliver(plan)
            #expect(report.failed.isEmpty, "\(report.failureSummary)")
            try await service.waitUntilSettled(timeout: .seconds(60))
            let originals: [String] = try await service.database.query(
                "SELECT DISTINCT original_transaction_id AS id FROM transactions ORDER BY 1"
            ).map { try $0.decode("id") }
            try #require(originals.count == 2)
            // Nobody owns them yet.
            #expect(try await service.database.query("SELECT 1 FROM subscribers").isEmpty)

            let set = try await service.put("/v1/subscriptions/\(originals[0])/app-account-token", ["app_user_id": "olly"])
            #expect(set.status == 200, "\(String(decoding: set.body, as: UTF8.self))")
            let answer = try jsonObject(set)
            let token = try jsonObject(try await service.get("/v1/subscribers/olly/app-account-token"))["app_account_token"] as? String
            #expect(answer["app_account_token"] as? String == token)
            let subscriber = try jsonObject(try await service.get("/v1/subscribers/olly"))
            let subscriptions = subscriber["subscriptions"] as? [[String: Any]] ?? []
            #expect(subscriptions.map { $0["original_transaction_id"] as? String } == [originals[0]])
            #expect(subscriptions.first?["app_account_token"] as? String == token)

            // A purchase subscriptiond never stored, and bad bodies: refused, nothing linked.
            #expect(try await service.put("/v1/subscriptions/999999999/app-account-token", ["app_user_id": "olly"]).status == 404)
            #expect(try await service.put("/v1/subscriptions/\(originals[1])/app-account-token", ["user": "x"]).status == 400)
            #expect(try await service.database.query("SELECT 1 FROM subscribers WHERE original_transaction_id = \(originals[1])").isEmpty)

            // subscriptionctl does the same through the same use case.
            let cli = try await CLI.run(
                ["set-app-account-token", originals[1], "pia"], databaseURL: service.databaseURL, environment: service.environment)
            #expect(cli.status == 0, "\(cli.stderr)")
            #expect(cli.stdout.contains("is linked"))
            #expect(try await service.get("/v1/subscribers/pia").status == 200)
            let audit = try await service.database.query("SELECT count(*) AS n FROM subscribers WHERE app_user_id = 'pia'")
            #expect(try audit[0].decode("n", as: Int64.self) == 1)
        }
    }
}
