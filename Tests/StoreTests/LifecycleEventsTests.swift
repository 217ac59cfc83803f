import AppStore
import Foundation
import JSON
import Postgres
import Store
import Subscriptions
import TestSupport
import Testing

/// Lifecycle events at the store: a subscription's story told step by step, each step's
/// facts applied at its own moment, in Apple's v1 form (a verifyReceipt answer) and its v2
/// form (a signed transaction and renewal info). Each step writes exactly its events; the
/// same facts applied again write none.
@Suite("Lifecycle events: each change writes exactly its events, in v1 and in v2")
struct LifecycleEventsTests {
    static let t0 = Date(timeIntervalSince1970: 1_780_000_000)
    static let day: TimeInterval = 86_400
    static let original = "7700000000000001"

    /// One paid period.
    struct Period {
        var id: String
        var product = "com.example.pro.monthly"
        var start: TimeInterval  // days from t0
        var end: TimeInterval
        var refundedAt: TimeInterval?
        var upgraded = false
    }

    /// What Apple says at one step.
    struct State {
        var periods: [Period]
        var autoRenew = true
        var renewsTo = "com.example.pro.monthly"
        var billingRetry = false
        var graceUntil: TimeInterval?
        var intent: Int?

        /// verifyReceipt's answer at `observedAt`: every period, and the renewal info.
        func v1(observedAt: Date) throws -> ReceiptFacts {
            let entries = periods.map { p -> String in
                var fields = [
                    "\"transaction_id\": \"\(p.id)\"", "\"original_transaction_id\": \"\(LifecycleEventsTests.original)\"",
                    "\"product_id\": \"\(p.product)\"", "\"purchase_date_ms\": \"\(ms(p.start))\"", "\"expires_date_ms\": \"\(ms(p.end))\"",
                    "\"subscription_group_identifier\": \"20500000\"", "\"is_upgraded\": \"\(p.upgraded)\"",
                ]
                if let refunded = p.refundedAt {
                    fields += ["\"cancellation_date_ms\": \"\(ms(refunded))\"", "\"cancellation_reason\": \"0\""]
                }
                return "{" + fields.joined(separator: ", ") + "}"
            }
            var renewal = [
                "\"original_transaction_id\": \"\(LifecycleEventsTests.original)\"", "\"product_id\": \"\(periods.last?.product ?? "")\"",
                "\"auto_renew_product_id\": \"\(renewsTo)\"", "\"auto_renew_status\": \"\(autoRenew ? 1 : 0)\"",
                "\"is_in_billing_retry_period\": \"\(billingRetry ? 1 : 0)\"",
            ]
            if let graceUntil { renewal.append("\"grace_period_expires_date_ms\": \"\(ms(graceUntil))\"") }
            if let intent { renewal.append("\"expiration_intent\": \"\(intent)\"") }
            let answer = """
                {"status": 0, "environment": "Production", "latest_receipt_info": [\(entries.joined(separator: ","))],
                 "pending_renewal_info": [{\(renewal.joined(separator: ", "))}]}
                """
            return ReceiptFacts(
                verifyResponse: try VerifyReceiptResponse.decode(from: Array(answer.utf8)), bundleID: "com.example.app",
                observedAt: observedAt)
        }

        /// A v2 notification's facts: the newest period's signed transaction and the renewal
        /// info, signed at `signedAt` (days from t0).
        func v2(signedAt: TimeInterval) throws -> ReceiptFacts {
            let latest = try #require(periods.last)
            var transaction: [String: Any] = [
                "transactionId": latest.id, "originalTransactionId": LifecycleEventsTests.original, "bundleId": "com.example.app",
                "productId": latest.product, "subscriptionGroupIdentifier": "20500000", "purchaseDate": ms(latest.start),
                "expiresDate": ms(latest.end), "type": "Auto-Renewable Subscription", "environment": "Production",
                "signedDate": ms(signedAt),
            ]
            if let refunded = latest.refundedAt {
                transaction["revocationDate"] = ms(refunded)
                transaction["revocationReason"] = 0
            }
            var renewal: [String: Any] = [
                "originalTransactionId": LifecycleEventsTests.original, "productId": latest.product, "autoRenewProductId": renewsTo,
                "autoRenewStatus": autoRenew ? 1 : 0, "isInBillingRetryPeriod": billingRetry, "environment": "Production",
                "signedDate": ms(signedAt),
            ]
            if let graceUntil { renewal["gracePeriodExpiresDate"] = ms(graceUntil) }
            if let intent { renewal["expirationIntent"] = intent }
            return ReceiptFacts(
                signedTransaction: try decode(transaction), renewalInfo: try decode(renewal), bundleID: "com.example.app",
                environment: .production)
        }

        private func ms(_ days: TimeInterval) -> Int64 {
            Int64((LifecycleEventsTests.t0.timeIntervalSince1970 + days * LifecycleEventsTests.day) * 1_000)
        }

        private func decode<T: Decodable>(_ object: [String: Any]) throws -> T {
            try StrictJSONParser.parse(Array(try JSONSerialization.data(withJSONObject: object))).decode(T.self)
        }
    }

    /// A step: what Apple says, when it is applied (days from t0), and the events it must write.
    struct Step {
        var state: State
        var at: TimeInterval
        var events: [String]
    }

    enum Form: String, CaseIterable { case v1, v2 }

    /// Applies each step at its moment and checks the events it wrote; then applies it again.
    private func play(_ steps: [Step], _ form: Form, _ name: String) async throws {
        try await TestDatabase.withClient { client, _ in
            var written = 0
            for (index, step) in steps.enumerated() {
                let now = Self.t0.addingTimeInterval(step.at * Self.day)
                let facts = form == .v1 ? try step.state.v1(observedAt: now) : try step.state.v2(signedAt: step.at)
                for attempt in 0..<2 {
                    try await client.withTransaction { session in
                        try FactStore.applyForTests(facts, receiptObservedAt: now, notificationID: nil, now: now, in: session)
                    }
                    let rows = try await client.query(
                        "SELECT type, reason, from_product, to_product, access_continues FROM webhook_events ORDER BY id")
                    let new = try rows.dropFirst(written).map { row -> String in
                        let detail = [
                            try row.decode("reason", as: String?.self),
                            try row.decode("to_product", as: String?.self).map { "to \($0)" },
                            try row.decode("access_continues", as: Bool?.self).map { $0 ? "access" : "no access" },
                        ].compactMap { $0 }
                        return ([try row.decode("type", as: String.self)] + detail).joined(separator: " ")
                    }
                    written = rows.count
                    #expect(new == (attempt == 0 ? step.events : []), "\(name) \(form) step \(index + 1)\(attempt == 0 ? "" : ", again")")
                }
            }
        }
    }

    static let first = Period(id: "7700000000000001", start: -1, end: 29)
    static let second = Period(id: "7700000000000002", start: 29, end: 59)

    @Test("renewed, auto-renew off and on, renewal preference, upgrade", arguments: Form.allCases)
    func renewalsAndChoices(_ form: Form) async throws {
        try await play(
            [
                Step(state: State(periods: [Self.first]), at: 0, events: ["subscription_created"]),
                Step(state: State(periods: [Self.first], autoRenew: false), at: 1, events: ["auto_renew_disabled"]),
                Step(state: State(periods: [Self.first]), at: 2, events: ["auto_renew_enabled"]),
                Step(
                    state: State(periods: [Self.first], renewsTo: "com.example.pro.basic"), at: 3,
                    events: ["product_changed renewal_preference to com.example.pro.basic"]),
                Step(state: State(periods: [Self.first]), at: 4, events: ["product_changed renewal_preference to com.example.pro.monthly"]),
                Step(state: State(periods: [Self.first, Self.second]), at: 29.5, events: ["renewed"]),
                Step(
                    state: State(
                        periods: [
                            Self.first, Self.second,
                            Period(id: "7700000000000003", product: "com.example.premium.monthly", start: 40, end: 70),
                        ],
                        renewsTo: "com.example.premium.monthly"), at: 40,
                    events: ["product_changed upgrade to com.example.premium.monthly"]),
            ], form, "choices")
    }

    @Test("billing issue in grace, grace over, recovered; billing issue without grace, expired", arguments: Form.allCases)
    func billing(_ form: Form) async throws {
        try await play(
            [
                Step(state: State(periods: [Self.first]), at: 0, events: ["subscription_created"]),
                Step(state: State(periods: [Self.first], billingRetry: true, graceUntil: 35), at: 29.5, events: ["billing_issue access"]),
                Step(state: State(periods: [Self.first], billingRetry: true, graceUntil: 35), at: 36, events: ["grace_period_expired"]),
                Step(
                    state: State(periods: [Self.first, Period(id: "7700000000000002", start: 37, end: 67)]), at: 37,
                    events: ["renewed", "billing_recovered"]),
                Step(
                    state: State(periods: [Self.first, Period(id: "7700000000000002", start: 37, end: 67)], billingRetry: true), at: 67.5,
                    events: ["billing_issue no access"]),
                Step(
                    state: State(periods: [Self.first, Period(id: "7700000000000002", start: 37, end: 67)], autoRenew: false, intent: 2),
                    at: 80,
                    events: ["auto_renew_disabled", "expired billing_error"]),
            ], form, "billing")
    }

    @Test("cancelled and expired; refunded; extended", arguments: Form.allCases)
    func endings(_ form: Form) async throws {
        try await play(
            [
                Step(state: State(periods: [Self.first]), at: 0, events: ["subscription_created"]),
                Step(state: State(periods: [Period(id: "7700000000000001", start: -1, end: 36)]), at: 1, events: ["renewal_extended"]),
                Step(
                    state: State(periods: [Period(id: "7700000000000001", start: -1, end: 36)], autoRenew: false), at: 2,
                    events: ["auto_renew_disabled"]),
                Step(
                    state: State(periods: [Period(id: "7700000000000001", start: -1, end: 36)], autoRenew: false, intent: 1), at: 37,
                    events: ["expired customer_cancelled"]),
                Step(
                    state: State(
                        periods: [Period(id: "7700000000000001", start: -1, end: 36, refundedAt: 38)], autoRenew: false, intent: 1), at: 38,
                    events: ["refunded 0"]),
            ], form, "endings")
    }

    @Test(
        "late news: a period seen to end with no word of a renewal, then Apple says it is retrying the charge (status_changed)",
        arguments: Form.allCases)
    func lateBillingRetry(_ form: Form) async throws {
        try await play(
            [
                Step(state: State(periods: [Self.first]), at: 0, events: ["subscription_created"]),
                Step(state: State(periods: [Self.first]), at: 30, events: ["expired"]),
                Step(state: State(periods: [Self.first], billingRetry: true), at: 31, events: ["status_changed"]),
            ], form, "late retry")
    }

    @Test("v2: a refund reversed (REFUND_REVERSED carries the transaction without its revocation, signed later)")
    func refundReversed() async throws {
        try await play(
            [
                Step(state: State(periods: [Self.first]), at: 0, events: ["subscription_created"]),
                Step(
                    state: State(periods: [Period(id: "7700000000000001", start: -1, end: 29, refundedAt: 1)]), at: 1,
                    events: ["refunded 0"]),
                Step(state: State(periods: [Self.first]), at: 2, events: ["refund_reversed"]),
            ], .v2, "reversal")
    }
}

/// One-time purchases: `purchase_created` when first seen, `purchase_revoked` on a refund,
/// in v1 (an `in_app` entry) and v2 (a signed Non-Consumable transaction); again, nothing.
@Suite("Lifecycle events of one-time purchases")
struct PurchaseEventsTests {
    static let id = "7900000000000001"

    static func facts(_ form: LifecycleEventsTests.Form, refunded: Bool, at now: Date) throws -> ReceiptFacts {
        let bought = Int64((now.timeIntervalSince1970 - 86_400) * 1_000)
        let stated = Int64(now.timeIntervalSince1970 * 1_000)
        switch form {
        case .v1:
            let refund = refunded ? #", "cancellation_date_ms": "\#(stated - 1_000)", "cancellation_reason": "1""# : ""
            let answer = """
                {"status": 0, "environment": "Production", "receipt": {"bundle_id": "com.example.app", "in_app": [
                  {"transaction_id": "\(id)", "original_transaction_id": "\(id)", "product_id": "com.example.pro.lifetime",
                   "quantity": "1", "purchase_date_ms": "\(bought)"\(refund)}]}}
                """
            return ReceiptFacts(
                verifyResponse: try VerifyReceiptResponse.decode(from: Array(answer.utf8)), bundleID: "com.example.app", observedAt: now)
        case .v2:
            var object: [String: Any] = [
                "transactionId": id, "originalTransactionId": id, "bundleId": "com.example.app", "productId": "com.example.pro.lifetime",
                "purchaseDate": bought, "signedDate": stated, "type": "Non-Consumable", "environment": "Production", "quantity": 1,
                "price": 29_990, "currency": "USD",
            ]
            if refunded {
                object["revocationDate"] = stated - 1_000
                object["revocationReason"] = 1
            }
            let transaction = try StrictJSONParser.parse(Array(try JSONSerialization.data(withJSONObject: object))).decode(
                JWSTransactionPayload.self)
            return ReceiptFacts(signedTransaction: transaction, renewalInfo: nil, bundleID: "com.example.app", environment: .production)
        }
    }

    @Test(
        "bought, then refunded: each writes its event with the purchase as it is then; applied again, nothing",
        arguments: LifecycleEventsTests.Form.allCases)
    func boughtThenRefunded(_ form: LifecycleEventsTests.Form) async throws {
        try await TestDatabase.withClient { client, _ in
            try await client.execute(
                """
                INSERT INTO products (product_id, bundle_id, type) VALUES ('com.example.pro.lifetime', 'com.example.app', 'non_consumable')
                """)
            var written = 0
            for (step, refunded) in [false, true].enumerated() {
                let now = LifecycleEventsTests.t0.addingTimeInterval(Double(step) * 86_400)
                let facts = try Self.facts(form, refunded: refunded, at: now)
                for attempt in 0..<2 {
                    try await client.withTransaction { session in
                        try FactStore.applyForTests(
                            facts, receiptObservedAt: now, notificationID: nil, appUserID: "buyer", now: now, in: session)
                    }
                    let rows = try await client.query(
                        """
                        SELECT type, reason, subscription IS NULL AS no_subscription, purchase->>'transactionID' AS purchase,
                               purchase->>'type' AS purchase_type, purchase ? 'cancellationDate' AS revoked, to_json(app_user_ids)::text AS users
                        FROM webhook_events ORDER BY id
                        """)
                    let new = Array(rows.dropFirst(written))
                    written = rows.count
                    let expected = attempt == 1 ? [] : (refunded ? ["purchase_revoked"] : ["purchase_created"])
                    #expect(
                        try new.map { try $0.decode("type", as: String.self) } == expected,
                        "\(form) step \(step + 1)\(attempt == 0 ? "" : ", again")")
                    for row in new {
                        #expect(try row.decode("no_subscription", as: Bool.self) && row.decode("purchase", as: String?.self) == Self.id)
                        #expect(try row.decode("purchase_type", as: String?.self) == "non_consumable")
                        #expect(try row.decode("revoked", as: Bool.self) == refunded)
                        #expect(try row.decode("users", as: String.self) == #"["buyer"]"#)
                        #expect(try row.decode("reason", as: String?.self) == (refunded ? "1" : nil))
                    }
                }
            }
        }
    }
}

/// Time moves status: `SubscriptionSweep` moves what is due, once, however many sweep.
@Suite("Status sweep: due subscriptions move once, with their events, whoever sweeps")
struct StatusSweepTests {
    @Test(
        "400 subscriptions whose period ended with no new fact: two sweepers on separate connections move each once, one expired event each"
    )
    func twoSweepers() async throws {
        try await TestDatabase.withClient { client, database in
            let applied = LifecycleEventsTests.t0
            for customer in 0..<400 {
                let id = String(7_800_000_000_000_000 + customer)
                let answer = """
                    {"status": 0, "environment": "Production", "latest_receipt_info": [{"transaction_id": "\(id)", "original_transaction_id": "\(id)",
                     "product_id": "com.example.pro.monthly", "purchase_date_ms": "\(Self.ms(applied, days: -29))", "expires_date_ms": "\(Self.ms(applied, days: 1))"}],
                     "pending_renewal_info": [{"original_transaction_id": "\(id)", "auto_renew_status": "0", "expiration_intent": "1"}]}
                    """
                let facts = ReceiptFacts(
                    verifyResponse: try VerifyReceiptResponse.decode(from: Array(answer.utf8)), bundleID: "com.example.app",
                    observedAt: applied)
                try await client.withTransaction { session in
                    try FactStore.applyForTests(facts, receiptObservedAt: applied, notificationID: nil, now: applied, in: session)
                }
            }
            let later = applied.addingTimeInterval(2 * 86_400)
            let other = database.makeClient(maximumConnections: 2)
            defer { Task { try? await other.shutdown() } }
            #expect(try await SubscriptionSweep(client: client).backlog(now: later).due == 400)
            // Both sweep at once, in small batches, until nothing is due.
            async let first = Self.drain(SubscriptionSweep(client: client), now: later)
            async let second = Self.drain(SubscriptionSweep(client: other), now: later)
            _ = try await (first, second)
            let expired = try await client.query(
                "SELECT count(*) AS n, count(DISTINCT original_transaction_id) AS d FROM webhook_events WHERE type = 'expired'")[0]
            #expect(try expired.decode("n", as: Int.self) == 400 && expired.decode("d", as: Int.self) == 400)
            #expect(
                try await client.query("SELECT count(*) AS n FROM subscriptions WHERE status = 'expired' AND due_at IS NULL")[0].decode(
                    "n", as: Int.self) == 400)
            #expect(try await SubscriptionSweep(client: client).backlog(now: later).due == 0)
            // Nothing due any more: another sweep writes nothing.
            #expect(try await SubscriptionSweep(client: client).sweep(limit: 50, now: later) == 0)
        }
    }

    private static func drain(_ sweep: SubscriptionSweep, now: Date) async throws {
        while try await sweep.sweep(limit: 25, now: now) > 0 {}
    }

    private static func ms(_ date: Date, days: Double) -> Int64 {
        Int64((date.timeIntervalSince1970 + days * 86_400) * 1_000)
    }
}
