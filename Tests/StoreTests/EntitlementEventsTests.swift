import AppStore
import Foundation
import Postgres
import Store
import Subscriptions
import TestSupport
import Testing

/// `entitlement_changed`: a user's entitlement beginning or ending is reported once, whatever
/// moved it (facts in v1 or v2, a grant, time), by reviews that run after the change.
@Suite("Entitlement events: each entitlement that begins or ends is reported once, by change or by time")
struct EntitlementEventsTests {
    typealias Form = LifecycleEventsTests.Form
    static let t0 = LifecycleEventsTests.t0
    static let day: TimeInterval = 86_400

    static func at(_ days: TimeInterval) -> Date { t0.addingTimeInterval(days * day) }

    /// The catalog: `pro`, granted by the monthly subscription of com.example.app.
    static func catalog(_ client: PostgresClient) async throws {
        try await client.execute(
            """
            INSERT INTO products (product_id, bundle_id, type, subscription_group_id, period)
            VALUES ('com.example.pro.monthly', 'com.example.app', 'auto_renewable', '20500000', 'P1M')
            """)
        try await client.execute("INSERT INTO entitlements (entitlement_id) VALUES ('pro')")
        try await client.execute("INSERT INTO entitlement_products (entitlement_id, product_id) VALUES ('pro', 'com.example.pro.monthly')")
    }

    static func apply(
        _ facts: ReceiptFacts, user: String?, at now: Date, _ client: PostgresClient,
        kinds: Set<LifecycleEvent.Kind> = Set(LifecycleEvent.Kind.allCases)
    ) async throws {
        try await client.withTransaction { session in
            try FactStore.applyForTests(
                facts, receiptObservedAt: now, notificationID: nil, appUserID: user, webhookEvents: kinds, now: now, in: session)
        }
    }

    /// The entitlement events written so far: "user entitlement active|ended", oldest first.
    static func events(_ client: PostgresClient) async throws -> [String] {
        try await client.query(
            """
            SELECT app_user_id, entitlement->>'id' AS id, (entitlement->>'active')::boolean AS active,
                   to_json(app_user_ids)::text AS users, original_transaction_id IS NULL AS about_user
            FROM webhook_events WHERE type = 'entitlement_changed' ORDER BY id
            """
        ).map { row in
            #expect(try row.decode("about_user", as: Bool.self))
            let user: String = try row.decode("app_user_id")
            #expect(try row.decode("users", as: String.self) == "[\"\(user)\"]")
            return "\(user) \(try row.decode("id", as: String.self)) \(try row.decode("active", as: Bool.self) ? "active" : "ended")"
        }
    }

    @Test(
        "bought, redelivered, lapsed with no notification: active once, nothing again, ended at the period's end", arguments: Form.allCases)
    func subscriptionBeginsAndLapses(_ form: Form) async throws {
        try await TestDatabase.withClient { client, _ in
            try await Self.catalog(client)
            let reviews = EntitlementReviews(client: client)
            let bought = LifecycleEventsTests.State(periods: [LifecycleEventsTests.first], autoRenew: false)
            let facts = form == .v1 ? try bought.v1(observedAt: Self.at(0)) : try bought.v2(signedAt: 0)
            try await Self.apply(facts, user: "alice", at: Self.at(0), client)
            #expect(try await Self.events(client).isEmpty, "a review reports it, not the apply")
            #expect(try await reviews.review(limit: 10, now: Self.at(0)) == 1)
            #expect(try await Self.events(client) == ["alice pro active"])

            // The same facts again (a redelivery): no review is due, and one would find nothing.
            try await Self.apply(facts, user: "alice", at: Self.at(1), client)
            #expect(try await reviews.review(limit: 10, now: Self.at(1)) == 0)
            #expect(try await reviews.backlog(now: Self.at(28)).due == 0)

            // The period ends with no new fact: the review due then reports the end, once.
            #expect(try await reviews.backlog(now: Self.at(29.5)).due == 1)
            #expect(try await reviews.review(limit: 10, now: Self.at(29.5)) == 1)
            #expect(try await reviews.review(limit: 10, now: Self.at(40)) == 0)
            #expect(try await Self.events(client) == ["alice pro active", "alice pro ended"])
        }
    }

    @Test("a refund ends it at once, in v1 and v2", arguments: Form.allCases)
    func refundEndsIt(_ form: Form) async throws {
        try await TestDatabase.withClient { client, _ in
            try await Self.catalog(client)
            let reviews = EntitlementReviews(client: client)
            let bought = LifecycleEventsTests.State(periods: [LifecycleEventsTests.first])
            try await Self.apply(
                form == .v1 ? try bought.v1(observedAt: Self.at(0)) : try bought.v2(signedAt: 0), user: "bob", at: Self.at(0), client)
            try await reviews.review(limit: 10, now: Self.at(0))
            var refunded = bought
            refunded.periods[0].refundedAt = 2
            try await Self.apply(
                form == .v1 ? try refunded.v1(observedAt: Self.at(2)) : try refunded.v2(signedAt: 2), user: nil, at: Self.at(2), client)
            try await reviews.review(limit: 10, now: Self.at(2))
            #expect(try await Self.events(client) == ["bob pro active", "bob pro ended"])
        }
    }

    @Test("a grant begins it and its end ends it; a revoked grant ends it; unlinking the purchase ends it")
    func grantsAndUnlinks() async throws {
        try await TestDatabase.withClient { client, _ in
            try await Self.catalog(client)
            let reviews = EntitlementReviews(client: client)
            let grants = GrantStore(client: client)
            // Grants are written at the database's clock: review at real times around them.
            let now = Date()
            _ = try await grants.add(
                appUserID: "carol", entitlement: "pro", expiresAt: now.addingTimeInterval(3_600), reason: "support", actor: "test")
            let revoked = try await grants.add(appUserID: "dave", entitlement: "pro", expiresAt: nil, reason: "press", actor: "test")
            try await reviews.review(limit: 10, now: now.addingTimeInterval(1))
            #expect(try await Self.events(client) == ["carol pro active", "dave pro active"])
            _ = try await grants.revoke(id: revoked.id, appUserID: nil, reason: nil, actor: "test")
            try await reviews.review(limit: 10, now: now.addingTimeInterval(2))
            #expect(try await reviews.backlog(now: now.addingTimeInterval(3_599)).due == 0)
            try await reviews.review(limit: 10, now: now.addingTimeInterval(3_601))
            #expect(try await Self.events(client) == ["carol pro active", "dave pro active", "dave pro ended", "carol pro ended"])

            // A subscription's user who is unlinked by an operator loses it.
            let bought = LifecycleEventsTests.State(periods: [Period(id: "7700000000000009", start: -1, end: 3_000)])
            try await Self.apply(try bought.v2(signedAt: 0), user: "erin", at: now, client)
            try await reviews.review(limit: 10, now: now.addingTimeInterval(4_000))
            #expect(
                try await SubscriberRemoval(client: client).unlink(
                    appUserID: "erin", originalTransactionID: LifecycleEventsTests.original, actor: "test"))
            try await reviews.review(limit: 10, now: now.addingTimeInterval(4_001))
            #expect(try await Self.events(client).suffix(2) == ["erin pro active", "erin pro ended"])
        }
    }

    typealias Period = LifecycleEventsTests.Period

    @Test("an app whose webhook_event_types leaves it out gets no review and no event")
    func filteredOut() async throws {
        try await TestDatabase.withClient { client, _ in
            try await Self.catalog(client)
            let bought = LifecycleEventsTests.State(periods: [LifecycleEventsTests.first])
            try await Self.apply(try bought.v2(signedAt: 0), user: "frank", at: Self.at(0), client, kinds: [.subscriptionCreated])
            #expect(try await EntitlementReviews(client: client).review(limit: 10, now: Self.at(0)) == 0)
            // Reviewed anyway (a grant of another kind marks the user), the selection still writes nothing.
            try await client.execute("INSERT INTO entitlement_reviews (app_user_id, due_at) VALUES ('frank', now())")
            let quiet = EntitlementReviews(
                client: client, webhookEvents: WebhookEventSelection(["com.example.app": [.subscriptionCreated]]))
            #expect(try await quiet.review(limit: 10, now: Date()) == 1)
            #expect(try await Self.events(client).isEmpty)
        }
    }

    @Test("300 users due at once: two reviewers on separate connections report each user's end once")
    func twoReviewers() async throws {
        try await TestDatabase.withClient { client, database in
            try await Self.catalog(client)
            for customer in 0..<300 {
                let id = String(7_810_000_000_000_000 + customer)
                let answer = """
                    {"status": 0, "environment": "Production", "latest_receipt_info": [{"transaction_id": "\(id)", "original_transaction_id": "\(id)",
                     "product_id": "com.example.pro.monthly", "purchase_date_ms": "\(Int64(Self.at(-29).timeIntervalSince1970 * 1_000))",
                     "expires_date_ms": "\(Int64(Self.at(1).timeIntervalSince1970 * 1_000))"}],
                     "pending_renewal_info": [{"original_transaction_id": "\(id)", "auto_renew_status": "0", "expiration_intent": "1"}]}
                    """
                let facts = ReceiptFacts(
                    verifyResponse: try VerifyReceiptResponse.decode(from: Array(answer.utf8)), bundleID: "com.example.app",
                    observedAt: Self.at(0))
                try await Self.apply(facts, user: "user-\(customer)", at: Self.at(0), client)
            }
            try await EntitlementReviews(client: client).review(limit: 300, now: Self.at(0))
            let other = database.makeClient(maximumConnections: 2)
            defer { Task { try? await other.shutdown() } }
            async let first = Self.drain(EntitlementReviews(client: client), now: Self.at(2))
            async let second = Self.drain(EntitlementReviews(client: other), now: Self.at(2))
            _ = try await (first, second)
            let ended = try await client.query(
                """
                SELECT count(*) AS n, count(DISTINCT app_user_id) AS d FROM webhook_events
                WHERE type = 'entitlement_changed' AND entitlement->>'active' = 'false'
                """)[0]
            #expect(try ended.decode("n", as: Int.self) == 300 && ended.decode("d", as: Int.self) == 300)
            #expect(try await client.query("SELECT count(*) AS n FROM user_entitlements")[0].decode("n", as: Int.self) == 0)
        }
    }

    private static func drain(_ reviews: EntitlementReviews, now: Date) async throws {
        while try await reviews.review(limit: 20, now: now) > 0 {}
    }
}
