import Foundation
import HTTPClient
import Logging
import Postgres
import TestSupport
import Testing

@Suite("Webhooks: kill -9 of subscriptiond mid-delivery loses nothing")
struct WebhookCrashTests {
    @Test("events in flight when the process is killed are sent again after restart; every event arrives")
    func killMidDelivery() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        verify.answerOneActivePeriodPerReceipt()
        let receiver = WebhookReceiver(secret: WebhookDeliveryTests.secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        receiver.behave(.hang(.seconds(30)))
        try await TestDatabase.withClient { database, testDatabase in
            let process = ServiceProcess(
                databaseURL: testDatabase.url, verify: verify,
                [
                    "WEBHOOK_URL": receiver.url, "WEBHOOK_SECRET": WebhookDeliveryTests.secret,
                    "WEBHOOK_TIMEOUT_MS": "20000", "WEBHOOK_LEASE_MS": "1500",
                ])
            var logger = Logger(label: "test.webhook-crash")
            logger.logLevel = .critical
            let http = CurlHTTPClient(logger: logger)
            let ids = (0..<20).map { String(7_300_000_000_000_000 + $0) }
            let port = try await process.start()
            for id in ids {
                let response = try await http.execute(
                    .postJSON(
                        url: "http://127.0.0.1:\(port)/notifications/appstore", body: NotificationBodies.renewal(originalTransactionID: id),
                        timeout: .seconds(10)))
                #expect(response.status == 200)
            }
            // Deliveries are in flight (the receiver holds them) when the process dies.
            try await WebhookDeliveryTests.waitForDeliveries(receiver, atLeast: 4)
            process.kill()
            let inFlight = try await database.query("SELECT count(*) AS n FROM webhook_events WHERE state = 'delivered'")
            #expect(try inFlight[0].decode("n", as: Int.self) == 0, "nothing was acknowledged before the kill")

            receiver.behave(.acknowledge)
            _ = try await process.start()
            let deadline = ContinuousClock.now + .seconds(90)
            var delivered = 0
            while ContinuousClock.now < deadline {
                delivered = try await database.query("SELECT count(*) AS n FROM webhook_events WHERE state = 'delivered'")[0].decode("n")
                if delivered == ids.count { break }
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(delivered == ids.count)
            let eventIDs = try await database.query("SELECT event_id FROM webhook_events").map {
                try $0.decode("event_id", as: String.self)
            }
            #expect(eventIDs.count == ids.count)
            #expect(Set(eventIDs).isSubset(of: receiver.acknowledged), "every event arrived with the id it was first sent with")
            process.terminate()
            try await http.shutdown()
        }
    }
}
