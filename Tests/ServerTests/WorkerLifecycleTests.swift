import Foundation
import HTTPClient
import Postgres
import Testing

@Suite("Worker: lifecycles end in the status Apple's rules give, in any delivery order")
struct WorkerLifecycleTests {
    /// trial → two paid renewals → auto-renew off → expiry.
    static func trialThenCancel() -> Lifecycle {
        var life = Lifecycle(originalTransactionID: "2000000000000100")
        life.purchase(from: daysAgo(67), days: 7, trial: true)
        life.notify("INITIAL_BUY", at: daysAgo(67))
        life.purchase(from: daysAgo(60), days: 30)
        life.notify("DID_RENEW", at: daysAgo(60))
        life.purchase(from: daysAgo(30), days: 30)
        life.notify("DID_RENEW", at: daysAgo(30))
        life.renewal["auto_renew_status"] = "0"
        life.renewal["expiration_intent"] = "1"
        life.notify("DID_CHANGE_RENEWAL_STATUS", at: daysAgo(10))
        return life
    }

    /// billing failure → grace period → recovery.
    static func graceThenRecovery() -> Lifecycle {
        var life = Lifecycle(originalTransactionID: "2000000000000200")
        life.purchase(from: daysAgo(40), days: 30)
        life.notify("INITIAL_BUY", at: daysAgo(40))
        life.renewal["is_in_billing_retry_period"] = "1"
        life.renewal["expiration_intent"] = "2"
        life.renewal["grace_period_expires_date_ms"] = NotificationBodies.ms(daysAgo(-6))
        life.notify("DID_FAIL_TO_RENEW", at: daysAgo(10))
        life.renewal["is_in_billing_retry_period"] = "0"
        life.renewal.removeValue(forKey: "expiration_intent")
        life.renewal.removeValue(forKey: "grace_period_expires_date_ms")
        life.purchase(from: daysAgo(8), days: 30)
        life.notify("DID_RECOVER", at: daysAgo(8))
        return life
    }

    /// billing failure → billing retry → Apple stops retrying: expired, billing_error.
    static func billingRetryThenExpiry() -> Lifecycle {
        var life = Lifecycle(originalTransactionID: "2000000000000300")
        life.purchase(from: daysAgo(100), days: 30)
        life.notify("INITIAL_BUY", at: daysAgo(100))
        life.purchase(from: daysAgo(70), days: 30)
        life.notify("DID_RENEW", at: daysAgo(70))
        life.renewal["is_in_billing_retry_period"] = "1"
        life.renewal["expiration_intent"] = "2"
        life.notify("DID_FAIL_TO_RENEW", at: daysAgo(40))
        life.renewal["is_in_billing_retry_period"] = "0"
        life.renewal["auto_renew_status"] = "0"
        return life
    }

    /// paid → refund through Apple support (CANCEL).
    static func refund() -> Lifecycle {
        var life = Lifecycle(originalTransactionID: "2000000000000400")
        life.purchase(from: daysAgo(20), days: 30)
        life.notify("INITIAL_BUY", at: daysAgo(20))
        life.transactions[0]["cancellation_date_ms"] = NotificationBodies.ms(daysAgo(5))
        life.transactions[0]["cancellation_reason"] = "0"
        life.renewal["auto_renew_status"] = "0"
        life.notify("CANCEL", at: daysAgo(5), extra: ["cancellation_date_ms": NotificationBodies.ms(daysAgo(5))])
        return life
    }

    /// monthly → upgrade to yearly in the same group.
    static func upgrade() -> Lifecycle {
        var life = Lifecycle(originalTransactionID: "2000000000000500")
        life.purchase(from: daysAgo(35), days: 30)
        life.notify("INITIAL_BUY", at: daysAgo(35))
        let second = life.purchase(from: daysAgo(5), days: 30)
        life.notify("DID_RENEW", at: daysAgo(5))
        life.transactions[second]["is_upgraded"] = "true"
        life.transactions[second]["cancellation_date_ms"] = NotificationBodies.ms(daysAgo(2))
        life.renewal["auto_renew_product_id"] = "com.example.pro.yearly"
        life.purchase("com.example.pro.yearly", from: daysAgo(2), days: 365)
        life.renewal["auto_renew_product_id"] = "com.example.pro.yearly"
        life.notify("INTERACTIVE_RENEWAL", at: daysAgo(2))
        return life
    }

    struct Expected: Sendable {
        let status: String
        let entitled: Bool
        let intent: String?
        let product: String
    }

    static let cases: [(name: String, life: @Sendable () -> Lifecycle, expected: Expected)] = [
        (
            "trial → renewals → auto-renew off → expiry", trialThenCancel,
            Expected(status: "expired", entitled: false, intent: "customer_cancelled", product: "com.example.pro.monthly")
        ),
        (
            "billing failure → grace period → recovery", graceThenRecovery,
            Expected(status: "active", entitled: true, intent: nil, product: "com.example.pro.monthly")
        ),
        (
            "billing failure → billing retry → expiry", billingRetryThenExpiry,
            Expected(status: "expired", entitled: false, intent: "billing_error", product: "com.example.pro.monthly")
        ),
        ("refund", refund, Expected(status: "revoked", entitled: false, intent: nil, product: "com.example.pro.monthly")),
        ("upgrade within a group", upgrade, Expected(status: "active", entitled: true, intent: nil, product: "com.example.pro.yearly")),
    ]

    /// Posts bodies, waits for the worker, and returns the canonical stored state.
    private func deliver(
        _ bodies: [[String: Any]], verifyAnswer: [String: Any]?
    ) async throws -> (state: String, subscription: [String: Any]) {
        let encoded = bodies.map(NotificationBodies.bytes)
        let delivered = try await deliver(encoded: encoded, verifyAnswer: verifyAnswer)
        return (delivered.state, try #require(try JSONSerialization.jsonObject(with: Data(delivered.subscription)) as? [String: Any]))
    }

    private func deliver(encoded bodies: [[UInt8]], verifyAnswer: [String: Any]?) async throws -> (state: String, subscription: [UInt8]) {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        if let verifyAnswer { try verify.answerAlways(verifyAnswer) }
        return try await RunningService.with(verifyServer: verify) { service in
            for body in bodies {
                let response = try await service.postNotification(body)
                #expect(response.status == 200)
            }
            try await service.waitUntilSettled()
            #expect(try await service.stateCounts() == ["processed": Set(bodies).count])
            let row = try #require(try await service.database.query("SELECT original_transaction_id FROM subscriptions").first)
            let id = try row.decode("original_transaction_id", as: String.self)
            let response = try await service.get("/v1/subscriptions/\(id)")
            #expect(response.status == 200)
            return (try await CanonicalState.dump(service.database), response.body)
        }
    }

    private func check(_ subscription: [String: Any], _ expected: Expected) {
        #expect(subscription["status"] as? String == expected.status)
        #expect(subscription["entitled"] as? Bool == expected.entitled)
        #expect(subscription["expiration_intent"] as? String == expected.intent)
        #expect(subscription["product_id"] as? String == expected.product)
    }

    @Test(
        "in order, shuffled, and each delivered three times: identical rows and the expected status",
        arguments: 0..<cases.count)
    func orderIndependence(index: Int) async throws {
        let (_, makeLife, expected) = Self.cases[index]
        let life = makeLife()
        var generator = SeededGenerator(seed: UInt64(index + 1))
        let inOrder = try await deliver(life.notifications, verifyAnswer: life.verifyAnswer)
        check(inOrder.subscription, expected)
        let shuffled = try await deliver(life.notifications.shuffled(using: &generator), verifyAnswer: life.verifyAnswer)
        let tripled = try await deliver(
            (life.notifications + life.notifications + life.notifications).shuffled(using: &generator), verifyAnswer: life.verifyAnswer)
        #expect(shuffled.state == inOrder.state)
        #expect(tripled.state == inOrder.state)
    }

    @Test("without receipts (and none stored), the bodies alone grant nothing, in any order")
    func bodiesAloneGrantNothing() async throws {
        let life = Self.trialThenCancel()
        for bodies in [life.notificationsWithoutReceipt, life.notificationsWithoutReceipt.reversed()] {
            let verify = ScriptedVerifyServer()
            try await verify.start()
            defer { Task { await verify.stop() } }
            try await RunningService.with(verifyServer: verify) { service in
                for body in bodies {
                    #expect(try await service.postNotification(NotificationBodies.bytes(body)).status == 200)
                }
                try await service.waitUntilSettled()
                #expect(try await service.stateCounts() == ["processed": Set(bodies.map(NotificationBodies.bytes)).count])
                #expect(try await CanonicalState.dump(service.database).isEmpty, "a body's own claims were stored as facts")
                #expect(verify.requests.isEmpty)
            }
        }
    }
}

/// A tiny deterministic generator so shuffles are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}

/// The stored facts and derived rows as text, without timestamps that record when we wrote them.
enum CanonicalState {
    static func dump(_ database: PostgresClient) async throws -> String {
        let queries: [PostgresQuery] = [
            "SELECT * FROM transactions ORDER BY environment, transaction_id",
            "SELECT * FROM renewal_info ORDER BY environment, original_transaction_id",
            "SELECT * FROM subscriptions ORDER BY environment, original_transaction_id",
        ]
        let volatile: Set<String> = ["first_seen_at", "updated_at", "created_at", "observed_at", "latest_receipt_observed_at", "stated_at"]
        var lines: [String] = []
        for query in queries {
            for row in try await database.query(query) {
                lines.append(
                    row.columnNames.filter { !volatile.contains($0) }.map { name in "\(name)=\(((try? row.text(name)) ?? nil) ?? "NULL")" }
                        .joined(separator: " "))
            }
        }
        return lines.joined(separator: "\n")
    }
}
