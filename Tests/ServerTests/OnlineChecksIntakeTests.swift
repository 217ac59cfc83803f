import Foundation
import HTTPClient
import Postgres
import Server
import SigningTestSupport
import TestSupport
import Testing
import UseCases

/// `APPSTORE_ONLINE_CHECKS=true` end to end: intake asks real `openssl ocsp` responders on
/// loopback about the leaf and intermediate of each signed notification.
@Suite("Online checks at intake: revoked is 401, no answer is 503; the worker does not ask again", .serialized)
struct OnlineChecksIntakeTests {
    /// A test PKI whose leaf and intermediate name responders on ports of their own, trusted by subscriptiond.
    struct Fixture {
        let chain: OCSPTestChain
        let rootPath: String

        init() throws {
            chain = try OCSPTestChain()
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("ocsp-root-\(UUID().uuidString).pem")
            try Data(chain.pki.root.pem.utf8).write(to: root)
            rootPath = root.path
        }

        var settings: [String: String] { ["APPSTORE_ROOT_CERTIFICATES": rootPath, "APPSTORE_ONLINE_CHECKS": "true"] }

        /// A Sandbox DID_RENEW for the test app, signed now, carrying a signed transaction.
        func notification(originalTransactionID: String) throws -> [UInt8] {
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let transaction = try sign([
                "transactionId": originalTransactionID, "originalTransactionId": originalTransactionID,
                "bundleId": RunningService.bundleID, "productId": "com.example.pro.monthly", "environment": "Sandbox",
                "purchaseDate": now - 60_000, "expiresDate": now + 2_592_000_000, "signedDate": now,
                "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
            ])
            let notification = try sign([
                "notificationType": "DID_RENEW", "notificationUUID": UUID().uuidString.lowercased(), "version": "2.0",
                "signedDate": now,
                "data": ["bundleId": RunningService.bundleID, "environment": "Sandbox", "signedTransactionInfo": transaction],
            ])
            return NotificationBodies.bytes(["signedPayload": notification])
        }

        private func sign(_ payload: [String: Any]) throws -> String {
            try TestJWS.sign(payload: String(decoding: try JSONSerialization.data(withJSONObject: payload), as: UTF8.self), by: chain.pki)
        }
    }

    private func stored(_ service: RunningService) async throws -> Int {
        try await service.database.query("SELECT count(*) AS n FROM notifications")[0].decode("n")
    }

    @Test("intake: no answer is 503 with nothing stored, good is accepted, a revoked leaf is 401")
    func intake() async throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: fixture.rootPath) }
        try await RunningService.with(settings: fixture.settings, runsWorker: false) { service in
            let intermediate = try await fixture.chain.intermediateResponder()
            defer { intermediate.stop() }

            // The leaf's responder is down: Apple is asked to come back, nothing is kept.
            let body = try fixture.notification(originalTransactionID: "2000000000000301")
            let unanswered = try await service.postNotification(body, retriesUnavailable: false)
            #expect(unanswered.status == 503)
            #expect(unanswered.headers.contains { $0.name.lowercased() == "retry-after" })
            let error = try jsonObject(unanswered)
            #expect(error["error"] as? String == "unavailable")
            #expect((error["message"] as? String)?.contains("OCSP") == true)
            #expect(try await stored(service) == 0)

            // It answers "good": Apple's retry of the same body is accepted.
            let leaf = try await fixture.chain.leafResponder()
            let accepted = try await service.postNotification(body, retriesUnavailable: false)
            #expect(accepted.status == 200)
            #expect(try jsonObject(accepted)["status"] as? String == "accepted")
            leaf.stop()
        }

        // A fresh process (no cached answer) whose responder says the leaf is revoked: 401, nothing stored.
        try await RunningService.with(settings: fixture.settings, runsWorker: false) { service in
            let intermediate = try await fixture.chain.intermediateResponder()
            let leaf = try await fixture.chain.leafResponder(revoked: true)
            defer {
                intermediate.stop()
                leaf.stop()
            }
            let rejected = try await service.postNotification(try fixture.notification(originalTransactionID: "2000000000000302"))
            #expect(rejected.status == 401)
            #expect(try await stored(service) == 0)
        }
    }

    @Test("worker: a notification verified at intake is not checked again, so silent responders do not hold it up")
    func worker() async throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(atPath: fixture.rootPath) }
        try await RunningService.with(settings: fixture.settings, runsWorker: false) { intake in
            let intermediate = try await fixture.chain.intermediateResponder()
            let leaf = try await fixture.chain.leafResponder()
            let accepted = try await intake.postNotification(try fixture.notification(originalTransactionID: "2000000000000303"))
            #expect(accepted.status == 200)
            leaf.stop()
            intermediate.stop()

            // Another process, whose verifier has asked nothing yet, works the inbox with every
            // responder down: the stored payload's signatures were checked once, at intake.
            let worker = try await RunningService.Instance.start(
                environment: intake.environment, retryPolicy: RetryPolicy(baseDelay: .milliseconds(50), maximumDelay: .milliseconds(200)),
                runsWorker: true)
            try await intake.waitUntilSettled()
            try await worker.stop()
            #expect(try await intake.stateCounts() == ["processed": 1])
            let retries: Int = try await intake.database.query(
                "SELECT count(*) AS n FROM notification_attempts WHERE outcome <> 'processed'")[0].decode("n")
            #expect(retries == 0)
            let active = try await intake.database.query("SELECT count(*) AS n FROM subscriptions WHERE status = 'active'")[0].decode(
                "n", as: Int.self)
            #expect(active == 1)
        }
    }
}
