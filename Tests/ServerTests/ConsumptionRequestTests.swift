import Access
import AppStoreSimulator
import Foundation
import HTTPClient
import Postgres
import TestSupport
import Testing

/// CONSUMPTION_REQUEST answered automatically against appstore-sim: recorded with the
/// notification, sent through libcurl for a consenting user only, the refund decision joined,
/// and nothing sent without consent or after the deadline.
@Suite("Consumption requests answered against appstore-sim", .serialized)
struct ConsumptionRequestTests {
    private struct Row {
        let id: Int64
        let state: String
        let transactionID: String
        let outcome: String?
    }

    private func rows(_ service: RunningService) async throws -> [Row] {
        try await service.database.query("SELECT id, state, transaction_id, outcome FROM consumption_requests ORDER BY id").map {
            Row(
                id: try $0.decode("id"), state: try $0.decode("state"), transactionID: try $0.decode("transaction_id"),
                outcome: try $0.decode("outcome"))
        }
    }

    private func waitFor(_ service: RunningService, timeout: Duration = .seconds(30), until done: ([Row]) -> Bool) async throws -> [Row] {
        let deadline = ContinuousClock.now + timeout
        var current = try await rows(service)
        while !done(current), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
            current = try await rows(service)
        }
        return current
    }

    @Test("a consenting customer's request is answered with the app's setting; another's waits until she consents")
    func answered() async throws {
        let world = try await AppStoreAPIEndToEndTests.World.make(
            customers: 2, seed: 20_261_203, sandboxShare: 0, scenarios: [.refundDeclined])
        defer { Task { await world.close() } }
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("consumption-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: config) }
        try Data(
            #"{"apps":[{"bundle_id":"\#(RunningService.bundleID)","consumption":{"refund_preference":"DECLINE","delivery_status":"DELIVERED","sample_content_provided":true}}]}"#
                .utf8
        ).write(to: config)
        try await RunningService.with(settings: world.settings.merging(["SUBSCRIPTIOND_CONFIG": config.path]) { _, new in new }) {
            service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            let customers = world.simulator.truth().customers
            try #require(customers.count == 2)
            let (consenting, silent) = (customers[0], customers[1])
            // The app links each customer's purchase; only the first consents.
            for customer in customers {
                let original = try #require(customer.subscriptions.first?.originalTransactionID)
                #expect(
                    try await service.post("/v1/transactions", ["app_user_id": customer.appUserID, "transaction_id": original]).status
                        == 200)
            }
            let consent = try await service.put("/v1/subscribers/\(consenting.appUserID)/consent", ["consumption_data": true])
            #expect(consent.status == 200)
            #expect(try jsonObject(consent)["consumption_data"] as? Bool == true)
            #expect(try await service.put("/v1/subscribers/\(silent.appUserID)/consent", ["consumption_data": "yes"]).status == 400)

            // The app's backend knows how much of the silent customer's purchase was used: sent
            // to Apple instead of the app's defaults (Send Consumption Information V2).
            let silentOriginal = try #require(silent.subscriptions.first?.originalTransactionID)
            let silentTransactions: [String] = try await service.database.query(
                "SELECT transaction_id FROM transactions WHERE original_transaction_id = \(silentOriginal)"
            ).map { try $0.decode("transaction_id") }
            try #require(!silentTransactions.isEmpty)
            for transaction in silentTransactions {
                let reported = try await service.put(
                    "/v1/purchases/\(transaction)/consumption", ["consumption_percentage": 42.5, "delivery_status": "UNDELIVERED_OTHER"])
                #expect(reported.status == 200, "\(String(decoding: reported.body, as: UTF8.self))")
                #expect(try jsonObject(reported)["consumption_percentage"] as? Double == 42.5)
            }
            let someone = try #require(silentTransactions.first)
            #expect(try await service.put("/v1/purchases/\(someone)/consumption", ["consumption_percentage": 101]).status == 400)
            #expect(try await service.put("/v1/purchases/\(someone)/consumption", ["consumption_percentage": 1.2345]).status == 400)
            #expect(try await service.put("/v1/purchases/\(someone)/consumption", ["delivery_status": "LOST"]).status == 400)
            #expect(try await service.put("/v1/purchases/\(someone)/consumption", [:]).status == 400)
            #expect(try await service.put("/v1/purchases/no-such-transaction/consumption", ["consumption_percentage": 1]).status == 404)
            // A key limited to another app does not see this app's purchase: 404, nothing recorded.
            let otherAppKey = try await APIKeysTests.key("other-app-writer", [.write], apps: [APIKeysTests.otherApp], on: service)
            let foreign = try await APIKeysTests.send(
                service, .put, "/v1/purchases/\(someone)/consumption", #"{"consumption_percentage": 99}"#, token: otherAppKey)
            #expect(foreign.status == 404)
            let audited = try await service.database.query("SELECT count(*) AS n FROM audit_log WHERE action = 'consumption_reported'")
            #expect(try audited[0].decode("n", as: Int.self) == silentTransactions.count)

            // Apple's notifications, last first: each customer's REFUND_DECLINED arrives before
            // the CONSUMPTION_REQUEST it decides (Apple's deliveries come in any order).
            for notification in world.simulator.notifications().reversed() {
                #expect(try await service.postNotification(notification.body).status == 200)
            }
            try await service.waitUntilSettled()
            let settled = try await waitFor(service) { rows in rows.count == 2 && rows.contains { $0.state == "sent" } }
            try #require(settled.count == 2, "\(settled)")
            let sent = try #require(settled.first { $0.state == "sent" })
            let waiting = try #require(settled.first { $0.state != "sent" })
            #expect(waiting.state == "pending")
            #expect(settled.allSatisfy { $0.outcome == "REFUND_DECLINED" }, "the decision is joined to each request")

            // Apple received exactly one answer, for the consenting customer's transaction.
            let answers = world.simulator.consumptionAnswers()
            #expect(answers.map(\.transactionID) == [sent.transactionID])
            #expect(
                answers.first?.body
                    == #"{"customerConsented":true,"deliveryStatus":"DELIVERED","refundPreference":"DECLINE","sampleContentProvided":true}"#
            )
            #expect(world.simulator.stats().api["http_202", default: 0] == 1)

            // The operator's view: list, show (with Apple's decision), and send refusing the silent one.
            let environment = service.environment.merging(["DATABASE_URL": service.databaseURL]) { _, new in new }
            let shown = try await CLI.run(
                ["consumption", "show", String(sent.id)], databaseURL: service.databaseURL, environment: environment)
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(shown.stdout.contains("apple decided REFUND_DECLINED"), "\(shown.stdout)")
            #expect(shown.stdout.contains(#""refundPreference": "DECLINE""#) || shown.stdout.contains("DECLINE"), "\(shown.stdout)")
            let listed = try await CLI.run(
                ["consumption", "list", "--state", "pending", "--json"], databaseURL: service.databaseURL, environment: environment)
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stdout.contains(waiting.transactionID))
            let refused = try await CLI.run(
                ["consumption", "send", String(waiting.id)], databaseURL: service.databaseURL, environment: environment)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("was not sent: waiting"), "\(refused.stderr)")

            // The other customer consents later: her waiting request is answered at once, not at
            // the next minute's look.
            let consented = ContinuousClock.now
            #expect(try await service.put("/v1/subscribers/\(silent.appUserID)/consent", ["consumption_data": true]).status == 200)
            let both = try await waitFor(service) { rows in rows.allSatisfy { $0.state == "sent" } }
            #expect(both.allSatisfy { $0.state == "sent" }, "\(both)")
            #expect(consented.duration(to: .now) < .seconds(30), "the consent should wake the request, not the minute's recheck")
            #expect(world.simulator.consumptionAnswers().count == 2)
            #expect(
                world.simulator.consumptionAnswers().last?.body
                    == #"{"consumptionPercentage":42500,"customerConsented":true,"deliveryStatus":"UNDELIVERED_OTHER","refundPreference":"DECLINE","sampleContentProvided":true}"#
            )

            // A redelivered CONSUMPTION_REQUEST is not recorded twice.
            for notification in world.simulator.notifications() {
                #expect(try await service.postNotification(notification.body).status == 200)
            }
            #expect(try await rows(service).count == 2)

            // Forgetting the user removes their consent.
            #expect(try await service.delete("/v1/subscribers/\(consenting.appUserID)").status == 200)
            let consents = try await service.database.query(
                "SELECT count(*) AS n FROM consumption_consents WHERE app_user_id = \(consenting.appUserID)")
            #expect(try consents[0].decode("n", as: Int.self) == 0)
        }
    }

    @Test(
        "Apple's permanent refusal ends a request failed; without consent one ends no_consent at its deadline; an app without the setting records none"
    )
    func refusedAndUnconfigured() async throws {
        let world = try await AppStoreAPIEndToEndTests.World.make(
            customers: 1, seed: 20_261_204, sandboxShare: 0, scenarios: [.refundDeclined])
        defer { Task { await world.close() } }
        // Without a consumption setting, the notification is processed and nothing is recorded.
        try await RunningService.with(settings: world.settings) { service in
            for notification in world.simulator.notifications() {
                #expect(try await service.postNotification(notification.body).status == 200)
            }
            try await service.waitUntilSettled()
            #expect(try await rows(service).isEmpty)
        }
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("consumption-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: config) }
        try Data(#"{"apps":[{"bundle_id":"\#(RunningService.bundleID)","consumption":{}}]}"#.utf8).write(to: config)
        try await RunningService.with(settings: world.settings.merging(["SUBSCRIPTIOND_CONFIG": config.path]) { _, new in new }) {
            service in
            // A request for a transaction Apple does not know (404): permanent, never retried.
            try await service.database.execute(
                """
                INSERT INTO subscribers (app_user_id, environment, original_transaction_id, bundle_id)
                VALUES ('ghost', 'Production', '9999999999', \(RunningService.bundleID))
                """)
            try await service.database.execute("INSERT INTO consumption_consents (app_user_id, consented) VALUES ('ghost', true)")
            try await service.database.execute(
                """
                INSERT INTO consumption_requests (notification_uuid, environment, bundle_id, transaction_id, original_transaction_id,
                    auto_renewable, requested_at, deadline)
                VALUES ('ghost-uuid', 'Production', \(RunningService.bundleID), '9999999999', '9999999999', true, now(),
                    now() + interval '12 hours')
                """)
            let failed = try await waitFor(service) { rows in rows.first?.state == "failed" }
            #expect(failed.first?.state == "failed", "\(failed)")
            let error: String? = try await service.database.query("SELECT last_error FROM consumption_requests")[0].decode("last_error")
            #expect(error?.contains("App Store Server API") == true, "\(error ?? "")")

            // A purchase nobody consented for, its deadline a moment away: it ends no_consent, and
            // Apple never hears of it.
            try await service.database.execute(
                """
                INSERT INTO consumption_requests (notification_uuid, environment, bundle_id, transaction_id, original_transaction_id,
                    auto_renewable, requested_at, deadline)
                VALUES ('silent-uuid', 'Production', \(RunningService.bundleID), '8888888888', '8888888888', true,
                    now() - interval '12 hours', now() + interval '30 seconds')
                """)
            let ended = try await waitFor(service) { rows in rows.contains { $0.transactionID == "8888888888" && $0.state == "no_consent" }
            }
            #expect(ended.contains { $0.transactionID == "8888888888" && $0.state == "no_consent" }, "\(ended)")
            #expect(world.simulator.consumptionAnswers().isEmpty)
        }
    }
}
