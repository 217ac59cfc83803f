import Foundation
import HTTPClient
import Postgres
import TestSupport
import Testing

@Suite("Real-world v1 notifications (shared/fixtures/realworld/v1) end in the right status")
struct FixtureNotificationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        let originalTransactionID: String
        let environment: String
        let status: String
        let autoRenew: Bool?
        let intent: String?
        var testDescription: String { file }
    }

    // Every fixture is years old, so nothing is active at the time of the test.
    static let cases: [Case] = [
        Case(
            file: "CANCEL.json", originalTransactionID: "720000238499386", environment: "Production", status: "revoked", autoRenew: false,
            intent: nil),
        Case(
            file: "DID_CHANGE_RENEWAL_STATUS_sandbox_full-unified-receipt.json", originalTransactionID: "1000000723811158",
            environment: "Sandbox", status: "expired", autoRenew: false, intent: "customer_cancelled"),
        Case(
            file: "DID_FAIL_TO_RENEW_billing-retry.json", originalTransactionID: "123456789012345", environment: "Production",
            status: "billing_retry", autoRenew: true, intent: "billing_error"),
        Case(
            file: "DID_RENEW_synthetic.json", originalTransactionID: "100000000000000", environment: "Production", status: "expired",
            autoRenew: true, intent: nil),
        Case(
            file: "INITIAL_BUY.json", originalTransactionID: "1000000383185294", environment: "Sandbox", status: "expired", autoRenew: true,
            intent: nil),
        Case(
            file: "INITIAL_BUY_trial_legacy-flat.json", originalTransactionID: "123456789012345", environment: "Production",
            status: "expired", autoRenew: true, intent: nil),
        Case(
            file: "INTERACTIVE_RENEWAL.json", originalTransactionID: "1000000383185294", environment: "Sandbox", status: "expired",
            autoRenew: true, intent: nil),
        Case(
            file: "RENEWAL_unified-receipt.json", originalTransactionID: "1000000715982567", environment: "Sandbox", status: "expired",
            autoRenew: true, intent: nil),
    ]

    /// The fixture with the test app's credentials: the captures' passwords are masked and
    /// some carry no `bid`. Everything else is sent exactly as captured.
    private func body(of file: String) throws -> (body: [UInt8], unified: [String: Any], sandbox: Bool) {
        let url = TestEnvironment.repositoryRoot().deletingLastPathComponent()
            .appendingPathComponent("shared/fixtures/realworld/v1/\(file)")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        object["bid"] = RunningService.bundleID
        object["password"] = RunningService.sharedSecret
        var unified = object["unified_receipt"] as? [String: Any] ?? [:]
        if unified.isEmpty {
            // Pre-2021 flat layout: Apple's verify answer carries the same transaction.
            unified["latest_receipt_info"] = [object["latest_receipt_info"]].compactMap { $0 }
        }
        let sandbox = (object["environment"] as? String) == "Sandbox"
        return (NotificationBodies.bytes(object), unified, sandbox)
    }

    /// The renewal info a verify answer would carry, from the fixture's top-level fields.
    private func renewalInfo(of fixture: Case) throws -> [String: Any] {
        let url = TestEnvironment.repositoryRoot().deletingLastPathComponent()
            .appendingPathComponent("shared/fixtures/realworld/v1/\(fixture.file)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var info: [String: Any] = ["original_transaction_id": fixture.originalTransactionID]
        if let status = object["auto_renew_status"] {
            info["auto_renew_status"] = "\(status)" == "true" ? "1" : "\(status)" == "false" ? "0" : status
        }
        for key in ["auto_renew_product_id", "expiration_intent", "is_in_billing_retry_period"] { info[key] = object[key] }
        return info
    }

    @Test("status, environment and renewal fields", arguments: cases)
    func fixture(_ fixture: Case) async throws {
        let (body, unified, sandbox) = try body(of: fixture.file)
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        var answer = unified
        answer["status"] = 0
        if answer["pending_renewal_info"] == nil {
            // Some captures were trimmed of it; Apple's verify answer always carries the
            // renewal state, which the notification also states at its top level.
            answer["pending_renewal_info"] = [try renewalInfo(of: fixture)]
        }
        answer["environment"] = sandbox ? "Sandbox" : "Production"
        let answerData = try JSONSerialization.data(withJSONObject: answer)
        // Like Apple: a sandbox receipt at the production URL answers 21007.
        verify.respond { endpoint, _ in
            if sandbox && endpoint == .production { return ["status": 21007] }
            return (try? JSONSerialization.jsonObject(with: answerData)) as? [String: Any] ?? [:]
        }
        try await RunningService.with(verifyServer: verify) { service in
            #expect(try await service.postNotification(body).status == 200)
            try await service.waitUntilSettled()
            #expect(try await service.stateCounts() == ["processed": 1])
            let response = try await service.get("/v1/subscriptions/\(fixture.originalTransactionID)")
            #expect(response.status == 200)
            let subscription = try jsonObject(response)
            #expect(subscription["status"] as? String == fixture.status)
            #expect(subscription["environment"] as? String == fixture.environment)
            #expect(subscription["entitled"] as? Bool == false)
            #expect(subscription["auto_renew"] as? Bool == fixture.autoRenew)
            #expect(subscription["expiration_intent"] as? String == fixture.intent)
            #expect(subscription["bundle_id"] as? String == RunningService.bundleID)
            #expect((subscription["transactions"] as? [Any])?.isEmpty == false)
            for key in [
                "product_id", "subscription_group_id", "expires_at", "auto_renew_product_id", "in_trial", "in_intro_offer",
                "grace_period_expires_at", "revoked_at", "revocation_reason", "updated_at",
            ] {
                #expect(subscription.keys.contains(key), "missing \(key)")
            }
            // The change was recorded (and announced with NOTIFY in the same transaction).
            let events = try await service.database.query(
                """
                SELECT old_status, new_status, notification_id FROM status_events WHERE original_transaction_id = \(fixture.originalTransactionID)
                """)
            #expect(events.count == 1)
            #expect(try events.first?.decode("new_status", as: String.self) == fixture.status)
            #expect(try events.first?.decode("old_status", as: String?.self) == nil)
            #expect(try events.first?.decode("notification_id", as: Int64?.self) != nil)
            if fixture.status == "revoked" {
                #expect(subscription["revoked_at"] is String)
                #expect(subscription["revocation_reason"] as? String == "0")
            }
        }
    }
}
