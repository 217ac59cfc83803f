import Foundation
import HTTPClient
import Postgres
import SigningTestSupport
import TestSupport
import Testing

/// The events Apple's 2025–2026 notification types bring of their own, end to end through
/// intake, the worker and webhook delivery: RESCIND_CONSENT (app-level, its AppTransaction
/// verified like the notification) names the users of that Apple account, and the Advanced
/// Commerce types METADATA_UPDATE, MIGRATION and PRICE_CHANGE each deliver their event with
/// the subscription.
@Suite("Notification types: consent_rescinded and the Advanced Commerce events")
struct AppleNotificationEventsTests {
    static let secret = "apple-events-webhook-secret-0123456789"

    /// A test PKI subscriptiond trusts, signing Sandbox payloads.
    struct Signer {
        let pki: TestPKI
        let root: String

        init() throws {
            pki = try TestPKI()
            root = try TemporaryFile.write(pki.root.pem, name: "apple-events-root.pem")
        }

        var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

        func sign(_ payload: [String: Any]) throws -> String {
            try TestJWS.sign(payload: String(decoding: try JSONSerialization.data(withJSONObject: payload), as: UTF8.self), by: pki)
        }

        /// A transaction of subscription `id`, bought a minute ago, of the Apple account `account`.
        func transaction(_ id: String, account: String) throws -> String {
            try sign([
                "transactionId": id, "originalTransactionId": id, "bundleId": RunningService.bundleID,
                "productId": "com.example.pro.monthly", "environment": "Sandbox", "purchaseDate": now - 60_000,
                "expiresDate": now + 2_592_000_000, "signedDate": now, "type": "Auto-Renewable Subscription",
                "inAppOwnershipType": "PURCHASED", "appTransactionId": account,
                "advancedCommerceInfo": ["requestReferenceId": "ref-\(id)", "period": "P1M", "taxCode": "C003-00-2"],
            ])
        }

        /// A notification body of `type` carrying `data` or `appData`.
        func notification(
            _ type: String, subtype: String? = nil, data: [String: Any]? = nil, appData: [String: Any]? = nil
        ) throws
            -> [UInt8]
        {
            var payload: [String: Any] = [
                "notificationType": type, "notificationUUID": UUID().uuidString.lowercased(), "version": "2.0", "signedDate": now,
            ]
            if let subtype { payload["subtype"] = subtype }
            if let data { payload["data"] = data }
            if let appData { payload["appData"] = appData }
            return NotificationBodies.bytes(["signedPayload": try sign(payload)])
        }

        func remove() {
            try? FileManager.default.removeItem(atPath: root)
        }
    }

    @Test("RESCIND_CONSENT names the account's users; METADATA_UPDATE, MIGRATION and PRICE_CHANGE each deliver their event")
    func events() async throws {
        let signer = try Signer()
        defer { signer.remove() }
        let receiver = WebhookReceiver(secret: Self.secret)
        try await receiver.start()
        defer { Task { await receiver.stop() } }
        let settings = ["APPSTORE_ROOT_CERTIFICATES": signer.root, "WEBHOOK_URL": receiver.url, "WEBHOOK_SECRET": Self.secret]
        try await RunningService.with(settings: settings) { service in
            // Two users of one Apple account (one subscription each), one of another account.
            for (user, id, account) in [
                ("kid", "7400000000000001", "acct-1"), ("kid-tablet", "7400000000000002", "acct-1"),
                ("other", "7400000000000003", "acct-2"),
            ] {
                let response = try await service.post(
                    "/v1/transactions", ["app_user_id": user, "signed_transaction": try signer.transaction(id, account: account)])
                #expect(response.status == 200)
            }
            let appTransaction = try signer.sign([
                "receiptType": "Sandbox", "bundleId": RunningService.bundleID, "appTransactionId": "acct-1",
                "originalApplicationVersion": "1.0", "signedDate": signer.now,
            ])
            let rescind = try signer.notification(
                "RESCIND_CONSENT",
                appData: ["bundleId": RunningService.bundleID, "environment": "Sandbox", "signedAppTransactionInfo": appTransaction])
            #expect(try await service.postNotification(rescind).status == 200)
            for (type, subtype) in [("METADATA_UPDATE", nil), ("MIGRATION", nil), ("PRICE_CHANGE", "ACCEPTED")] as [(String, String?)] {
                let body = try signer.notification(
                    type, subtype: subtype,
                    data: [
                        "bundleId": RunningService.bundleID, "environment": "Sandbox",
                        "signedTransactionInfo": try signer.transaction("7400000000000003", account: "acct-2"),
                    ])
                #expect(try await service.postNotification(body).status == 200)
            }
            try await service.waitUntilSettled()

            let wanted: Set = ["consent_rescinded", "metadata_updated", "migrated", "price_changed"]
            let arrived = try await Polling.until(seconds: 30) { Set(receiver.deliveries.map(\.type)).isSuperset(of: wanted) }
            #expect(arrived, "\(receiver.deliveries.map(\.type))")
            let bodies = receiver.deliveries.filter { wanted.contains($0.type) && $0.signatureValid }.map {
                try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any]
            }.compactMap { $0 }
            let consent = try #require(bodies.first { $0["type"] as? String == "consent_rescinded" })
            #expect(consent["app_transaction_id"] as? String == "acct-1")
            #expect(consent["app_user_ids"] as? [String] == ["kid", "kid-tablet"])
            #expect(consent["subscription"] == nil)
            for type in ["metadata_updated", "migrated", "price_changed"] {
                let event = try #require(bodies.first { $0["type"] as? String == type }, "\(type)")
                #expect((event["subscription"] as? [String: Any])?["original_transaction_id"] as? String == "7400000000000003")
                #expect(event["app_user_ids"] as? [String] == ["other"])
            }
            #expect(bodies.first { $0["type"] as? String == "price_changed" }?["reason"] as? String == "ACCEPTED")
        }
    }

    @Test("a RESCIND_CONSENT whose AppTransaction another chain signed is refused at intake and nothing is written")
    func forgedAppTransaction() async throws {
        let signer = try Signer()
        defer { signer.remove() }
        let forger = try Signer()
        defer { forger.remove() }
        try await RunningService.with(settings: ["APPSTORE_ROOT_CERTIFICATES": signer.root]) { service in
            let forged = try forger.sign([
                "receiptType": "Sandbox", "bundleId": RunningService.bundleID, "appTransactionId": "acct-1", "signedDate": signer.now,
            ])
            let body = try signer.notification(
                "RESCIND_CONSENT",
                appData: ["bundleId": RunningService.bundleID, "environment": "Sandbox", "signedAppTransactionInfo": forged])
            #expect(try await service.postNotification(body).status == 401)
            let stored: Int = try await service.database.query("SELECT count(*)::int AS n FROM notifications")[0].decode("n")
            #expect(stored == 0)
        }
    }
}
