import Foundation
import HTTPClient
import Postgres
import TestSupport
import Testing

/// Only Apple's verified word changes entitlement: a v1 body is authenticated by a shared
/// secret alone, so what it claims by itself never grants, extends or revokes anything.
@Suite("Provenance: Apple's verified answer always wins over a body's own claims")
struct ProvenanceTests {
    private static let id = "4100000000000001"

    /// A verifyReceipt answer saying the subscription lapsed a month ago.
    private static func lapsedAnswer(bundleID: String = RunningService.bundleID) -> [String: Any] {
        [
            "status": 0, "environment": "Production", "receipt": ["bundle_id": bundleID],
            "latest_receipt_info": [
                [
                    "transaction_id": id, "original_transaction_id": id, "product_id": "com.example.pro.monthly",
                    "purchase_date_ms": NotificationBodies.ms(daysAgo(60)), "expires_date_ms": NotificationBodies.ms(daysAgo(30)),
                ]
            ],
            "pending_renewal_info": [["original_transaction_id": id, "auto_renew_status": "0", "expiration_intent": "1"]],
        ]
    }

    private func subscription(_ service: RunningService) async throws -> [String: Any]? {
        let response = try await service.get("/v1/subscriptions/\(Self.id)")
        return response.status == 200 ? try jsonObject(response) : nil
    }

    @Test("a body claiming a period to 2100, with a receipt Apple says lapsed, ends expired")
    func forgedFarFutureBodyLoses() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        try verify.answerAlways(Self.lapsedAnswer())
        try await RunningService.with(verifyServer: verify) { service in
            let farFuture = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01
            let forged = NotificationBodies.v1(
                type: "DID_RENEW", originalTransactionID: Self.id, transactionID: Self.id, expires: farFuture)
            #expect(try await service.postNotification(NotificationBodies.bytes(forged)).status == 200)
            try await service.waitUntilSettled()
            #expect(try await service.stateCounts() == ["processed": 1])
            let subscription = try #require(try await subscription(service))
            #expect(subscription["status"] as? String == "expired")
            #expect(subscription["entitled"] as? Bool == false)
            #expect((subscription["expires_at"] as? String)?.hasPrefix("2100") == false)
            // Nothing of the body's transaction was stored: the only facts are Apple's.
            let stored = try await service.database.query("SELECT max(expires_date) AS e FROM transactions")
            #expect(try stored[0].decode("e", as: Date.self) < Date())
        }
    }

    @Test("a receipt of another app, verified with this app's secret, ends dead naming both bundle ids")
    func otherAppsReceiptIsDead() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        try verify.answerAlways(Self.lapsedAnswer(bundleID: "com.attacker.other"))
        try await RunningService.with(verifyServer: verify) { service in
            let body = NotificationBodies.v1(type: "DID_RENEW", originalTransactionID: Self.id, transactionID: Self.id)
            #expect(try await service.postNotification(NotificationBodies.bytes(body)).status == 200)
            try await service.waitUntilSettled()
            #expect(try await service.stateCounts() == ["dead": 1])
            let error = try await service.database.query("SELECT last_error FROM notifications")[0].decode("last_error", as: String.self)
            #expect(error.contains("com.attacker.other") && error.contains(RunningService.bundleID))
            #expect(try await subscription(service) == nil)
        }
    }

    @Test("without a receipt: verified through the subscription's stored receipt, else recorded without granting anything")
    func receiptlessBodies() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        try verify.answerAlways(Self.lapsedAnswer())
        try await RunningService.with(verifyServer: verify) { service in
            // No receipt, nothing stored: processed, nothing applied, and the attempt says why.
            let active = NotificationBodies.v1(type: "DID_RENEW", originalTransactionID: Self.id, transactionID: Self.id, receipt: nil)
            #expect(try await service.postNotification(NotificationBodies.bytes(active)).status == 200)
            try await service.waitUntilSettled()
            #expect(try await service.stateCounts() == ["processed": 1])
            #expect(try await subscription(service) == nil)
            let note = try await service.database.query("SELECT error FROM notification_attempts")[0].decode("error", as: String?.self)
            #expect(note?.contains("without applying its claims") == true)
            #expect(verify.requests.count == 0)

            // A notification with a receipt stores it; a later receipt-less one is verified through it.
            let withReceipt = NotificationBodies.v1(type: "INITIAL_BUY", originalTransactionID: Self.id, transactionID: Self.id)
            #expect(try await service.postNotification(NotificationBodies.bytes(withReceipt)).status == 200)
            try await service.waitUntilSettled()
            let before = verify.requests.count
            let later = NotificationBodies.v1(
                type: "DID_CHANGE_RENEWAL_STATUS", originalTransactionID: Self.id, transactionID: Self.id,
                expires: Date(timeIntervalSince1970: 4_102_444_800), receipt: nil)
            #expect(try await service.postNotification(NotificationBodies.bytes(later)).status == 200)
            try await service.waitUntilSettled()
            #expect(verify.requests.count == before + 1)
            #expect(try await subscription(service)?["status"] as? String == "expired")
        }
    }
}
