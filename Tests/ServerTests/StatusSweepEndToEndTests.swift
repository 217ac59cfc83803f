import Foundation
import HTTPClient
import Postgres
import Testing

/// Time moves status with no fact: a v1 app hears no EXPIRED notification, yet its backend
/// must learn that the subscription lapsed.
@Suite("Status sweep end to end: a silent expiry is stored and delivered within 60 s, with the entitlement's end")
struct StatusSweepEndToEndTests {
    @Test(
        "a v1 subscription expiring 30 s after its last notification: stored expired, and expired and entitlement_changed (ended) delivered within 60 s of the expiry; stats shows nothing stale or due"
    )
    func silentExpiry() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        let receiver = WebhookReceiver(secret: "status-sweep-webhook-secret-0123456789")
        try await receiver.start()
        defer { Task { await receiver.stop() } }

        let expiry = Date().addingTimeInterval(30)
        var life = Lifecycle(originalTransactionID: "8100000000000001")
        life.purchase(from: expiry.addingTimeInterval(-30 * 86_400), days: 30)
        life.renewal["auto_renew_status"] = "0"
        life.renewal["expiration_intent"] = "1"
        life.notify("DID_CHANGE_RENEWAL_STATUS", at: Date())
        try verify.answerAlways(life.verifyAnswer)
        let settings = ["WEBHOOK_URL": receiver.url, "WEBHOOK_SECRET": "status-sweep-webhook-secret-0123456789"]
        try await RunningService.with(verifyServer: verify, settings: settings) { service in
            try await service.database.execute(
                """
                INSERT INTO products (product_id, bundle_id, type, subscription_group_id, period)
                VALUES ('com.example.pro.monthly', \(RunningService.bundleID), 'auto_renewable', 'g1', 'P1M')
                """)
            try await service.database.execute("INSERT INTO entitlements (entitlement_id) VALUES ('pro')")
            try await service.database.execute("INSERT INTO entitlement_products VALUES ('pro', 'com.example.pro.monthly')")
            #expect(try await service.postNotification(NotificationBodies.bytes(try #require(life.notifications.last))).status == 200)
            try await service.waitUntilSettled()
            #expect(try await service.post("/v1/receipts", ["app_user_id": "alice", "receipt_data": life.receiptToken]).status == 200)
            let stored = { try await service.database.query("SELECT status FROM subscriptions")[0].decode("status", as: String.self) }
            #expect(try await stored() == "active")

            // No notification comes: the sweep sees the period end.
            var arrived: Date?
            let ended = {
                receiver.deliveries.contains { $0.type == "entitlement_changed" && Self.object($0.body)["active"] as? Bool == false }
            }
            while Date() < expiry.addingTimeInterval(75), arrived == nil {
                if receiver.deliveries.contains(where: { $0.type == "expired" }) && ended() { arrived = Date() }
                try await Task.sleep(for: .milliseconds(250))
            }
            let delivered = try #require(arrived, "no expired event within 75 s of the expiry")
            #expect(delivered.timeIntervalSince(expiry) <= 60, "delivered \(delivered.timeIntervalSince(expiry)) s after the expiry")
            #expect(try await stored() == "expired")
            #expect(receiver.deliveries.filter { $0.type == "expired" }.count == 1)
            // alice's entitlement: begun when her receipt linked her, ended by time alone.
            let entitlementEvents = receiver.deliveries.filter { $0.type == "entitlement_changed" }.map { Self.object($0.body) }
            #expect(entitlementEvents.map { $0["active"] as? Bool } == [true, false])
            for event in entitlementEvents {
                #expect(event["entitlement"] as? String == "pro" && event["app_user_ids"] as? [String] == ["alice"])
                let state = try #require((event["entitlements"] as? [String: Any])?["pro"] as? [String: Any])
                #expect(state["active"] as? Bool == event["active"] as? Bool)
                #expect(state["source"] as? String == ((event["active"] as? Bool) == true ? "subscription" : nil))
            }
            let stats = try await CLI.run(["stats", "--json"], databaseURL: service.databaseURL)
            let subscriptions = try #require(
                (try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])?["subscriptions"] as? [String: Any])
            #expect(subscriptions["stale"] as? Int == 0 && subscriptions["sweep_due"] as? Int == 0, "\(subscriptions)")
            #expect(subscriptions["entitlement_reviews_due"] as? Int == 0, "\(subscriptions)")
        }
    }

    private static func object(_ body: [UInt8]) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }
}
