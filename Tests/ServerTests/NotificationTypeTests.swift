import Foundation
import HTTPClient
import Postgres
import Testing

@Suite("Every v1 notification type is processed; the receipt decides the status")
struct NotificationTypeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let type: String
        let status: String
        let transaction: [String: String]
        let renewal: [String: String]
        var testDescription: String { type }
    }

    static let cases: [Case] = [
        Case(type: "INITIAL_BUY", status: "active", transaction: ["is_trial_period": "true"], renewal: [:]),
        Case(type: "DID_RENEW", status: "active", transaction: [:], renewal: [:]),
        Case(type: "INTERACTIVE_RENEWAL", status: "active", transaction: [:], renewal: [:]),
        Case(type: "DID_RECOVER", status: "active", transaction: [:], renewal: [:]),
        Case(type: "RENEWAL", status: "active", transaction: [:], renewal: [:]),
        Case(type: "DID_CHANGE_RENEWAL_STATUS", status: "active", transaction: [:], renewal: ["auto_renew_status": "0"]),
        Case(
            type: "DID_CHANGE_RENEWAL_PREF", status: "active", transaction: [:],
            renewal: ["auto_renew_product_id": "com.example.pro.yearly"]),
        Case(
            type: "DID_FAIL_TO_RENEW", status: "grace_period", transaction: ["expires": "past"],
            renewal: ["is_in_billing_retry_period": "1", "expiration_intent": "2", "grace_period_expires_date_ms": "future"]),
        Case(type: "CANCEL", status: "revoked", transaction: ["cancellation_date_ms": "past", "cancellation_reason": "1"], renewal: [:]),
        Case(type: "REFUND", status: "revoked", transaction: ["cancellation_date_ms": "past", "cancellation_reason": "0"], renewal: [:]),
        Case(
            type: "REVOKE", status: "revoked", transaction: ["cancellation_date_ms": "past", "in_app_ownership_type": "FAMILY_SHARED"],
            renewal: [:]),
        Case(type: "PRICE_INCREASE_CONSENT", status: "active", transaction: [:], renewal: ["price_consent_status": "0"]),
        Case(type: "CONSUMPTION_REQUEST", status: "active", transaction: [:], renewal: [:]),
    ]

    @Test("type → status", arguments: cases)
    func notificationType(_ testCase: Case) async throws {
        var life = Lifecycle(originalTransactionID: "4000000000000100")
        life.purchase(from: daysAgo(5), days: 30)
        for (key, value) in testCase.transaction {
            switch (key, value) {
            case ("expires", "past"): life.transactions[0]["expires_date_ms"] = NotificationBodies.ms(daysAgo(1))
            case (_, "past"): life.transactions[0][key] = NotificationBodies.ms(daysAgo(2))
            default: life.transactions[0][key] = value
            }
        }
        for (key, value) in testCase.renewal {
            life.renewal[key] = value == "future" ? NotificationBodies.ms(daysAgo(-10)) : value
        }
        life.notify(testCase.type, at: daysAgo(1))
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        try verify.answerAlways(life.verifyAnswer)
        try await RunningService.with(verifyServer: verify) { service in
            #expect(try await service.postNotification(NotificationBodies.bytes(life.notifications[0])).status == 200)
            try await service.waitUntilSettled()
            #expect(try await service.stateCounts() == ["processed": 1])
            let subscription = try jsonObject(try await service.get("/v1/subscriptions/4000000000000100"))
            #expect(subscription["status"] as? String == testCase.status)
            if let product = testCase.renewal["auto_renew_product_id"] {
                #expect(subscription["auto_renew_product_id"] as? String == product)
            }
            if testCase.renewal["auto_renew_status"] == "0" {
                #expect(subscription["auto_renew"] as? Bool == false)
            }
            if testCase.type == "INITIAL_BUY" {
                #expect(subscription["in_trial"] as? Bool == true)
            }
            if testCase.status == "grace_period" {
                #expect(subscription["entitled"] as? Bool == true)
                #expect(subscription["grace_period_expires_at"] is String)
            }
        }
    }
}
