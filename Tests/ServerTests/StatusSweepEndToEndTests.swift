import Foundation
import HTTPClient
import Postgres
import Testing

/// Time moves status with no fact: a v1 app hears no EXPIRED notification, yet its backend
/// must learn that the subscription lapsed.
@Suite("Status sweep end to end: a silent expiry is stored and delivered within 60 s")
struct StatusSweepEndToEndTests {
    @Test("a v1 subscription expiring 30 s after its last notification: stored expired and an expired event delivered within 60 s of the expiry; stats shows nothing stale or due")
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
            #expect(try await service.postNotification(NotificationBodies.bytes(try #require(life.notifications.last))).status == 200)
            try await service.waitUntilSettled()
            let stored = { try await service.database.query("SELECT status FROM subscriptions")[0].decode("status", as: String.self) }
            #expect(try await stored() == "active")

            // No notification comes: the sweep sees the period end.
            var arrived: Date?
            while Date() < expiry.addingTimeInterval(75), arrived == nil {
                if receiver.deliveries.contains(where: { $0.type == "expired" }) { arrived = Date() }
                try await Task.sleep(for: .milliseconds(250))
            }
            let delivered = try #require(arrived, "no expired event within 75 s of the expiry")
            #expect(delivered.timeIntervalSince(expiry) <= 60, "delivered \(delivered.timeIntervalSince(expiry)) s after the expiry")
            #expect(try await stored() == "expired")
            #expect(receiver.deliveries.filter { $0.type == "expired" }.count == 1)
            let stats = try await CLI.run(["stats", "--json"], databaseURL: service.databaseURL)
            let subscriptions = try #require((try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])?["subscriptions"] as? [String: Any])
            #expect(subscriptions["stale"] as? Int == 0 && subscriptions["sweep_due"] as? Int == 0, "\(subscriptions)")
        }
    }
}
