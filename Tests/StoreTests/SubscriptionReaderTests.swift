import AppStore
import Foundation
import Postgres
import Subscriptions
import TestSupport
import Testing

@testable import Store

/// The one-statement reads give what the per-environment queries they replaced give
/// (`SubscriptionReader.views`, which the webhook outbox still uses, and `StoredFacts` with
/// the whole catalog), for a user whose subscriptions span groups, environments, a product
/// the catalog does not list, a link without facts and a subscription without its row.
@Suite("Reads: one statement per request, same answers")
struct SubscriptionReaderTests {
    static let user = "reader-user"

    /// Stores the fixture: see the suite's description. Returns the links by environment.
    private func storeFixture(_ client: PostgresClient) async throws {
        try await client.withTransaction { session in
            try session.runScript(
                """
                INSERT INTO products (product_id, bundle_id, type, subscription_group_id, period,
                    intro_payment_mode, intro_period, intro_periods, intro_price) VALUES
                  ('pro.monthly', 'app', 'auto_renewable', '20500000', 'P1M', 'free_trial', 'P1W', 1, 0),
                  ('pro.yearly', 'app', 'auto_renewable', '20500000', 'P1Y', 'pay_up_front', 'P3M', 1, 9.99),
                  ('news.weekly', 'app', 'auto_renewable', '20600000', 'P1W', 'pay_as_you_go', 'P1W', 4, 0.49),
                  ('premium.monthly', 'app', 'auto_renewable', '20700000', 'P1M', NULL, NULL, NULL, NULL);
                INSERT INTO transactions (environment, transaction_id, original_transaction_id, bundle_id, product_id,
                    subscription_group_id, purchase_date, expires_date, is_trial_period, cancellation_date,
                    cancellation_reason, ownership_type, source, offer_type, app_account_token) VALUES
                  -- Production 100: three months of pro.monthly (the first a trial), active; the
                  -- receipt names an old group, the catalog's wins.
                  ('Production', '1001', '100', 'app', 'pro.monthly', 'OLD', now() - interval '70 days', now() - interval '40 days', true, NULL, NULL, 'PURCHASED', 'v1', NULL, NULL),
                  ('Production', '1002', '100', 'app', 'pro.monthly', 'OLD', now() - interval '40 days', now() - interval '10 days', false, NULL, NULL, 'PURCHASED', 'v1', NULL, NULL),
                  ('Production', '1003', '100', 'app', 'pro.monthly', 'OLD', now() - interval '10 days', now() + interval '20 days', false, NULL, NULL, 'PURCHASED', 'v2', 1, '5f0c2a54-2b7e-4a0e-9d55-1d2a3b4c5d6e'),
                  -- Production 200: news.weekly lapsed, billing retry inside the grace period.
                  ('Production', '2001', '200', 'app', 'news.weekly', '20600000', now() - interval '9 days', now() - interval '2 days', false, NULL, NULL, 'FAMILY_SHARED', 'v2', NULL, NULL),
                  -- Sandbox 100: the same original transaction id in the other environment.
                  ('Sandbox', '1001', '100', 'app', 'pro.yearly', '20500000', now() - interval '1 day', now() + interval '1 hour', false, NULL, NULL, NULL, 'v1', NULL, NULL),
                  -- Production 400: a product the catalog does not list, refunded.
                  ('Production', '4001', '400', 'app', 'legacy.monthly', '999', now() - interval '5 days', now() + interval '25 days', false, now() - interval '1 day', '1', NULL, 'v1', NULL, NULL),
                  -- Production 500: facts but no subscriptions row yet.
                  ('Production', '5001', '500', 'app', 'premium.monthly', NULL, now() - interval '3 days', now() + interval '27 days', false, NULL, NULL, NULL, 'v1', NULL, NULL),
                  -- Another user's subscription: must not leak into reader-user's answers.
                  ('Production', '6001', '600', 'app', 'news.weekly', '20600000', now() - interval '3 days', now() + interval '4 days', false, NULL, NULL, NULL, 'v1', NULL, NULL);
                INSERT INTO renewal_info (environment, original_transaction_id, bundle_id, product_id, auto_renew_product_id,
                    auto_renew_status, expiration_intent, is_in_billing_retry_period, grace_period_expires_date, observed_at) VALUES
                  ('Production', '100', 'app', 'pro.monthly', 'pro.yearly', true, NULL, false, NULL, now()),
                  ('Production', '200', 'app', 'news.weekly', 'news.weekly', true, 'billing_error', true, now() + interval '3 days', now()),
                  ('Sandbox', '100', 'app', 'pro.yearly', 'pro.yearly', false, 'customer_cancelled', false, NULL, now());
                INSERT INTO subscriptions (environment, original_transaction_id, bundle_id, product_id, status, latest_transaction_id, updated_at) VALUES
                  ('Production', '100', 'app', 'pro.monthly', 'active', '1003', '2026-01-02 03:04:05+00'),
                  ('Production', '200', 'app', 'news.weekly', 'grace_period', '2001', '2026-01-03 03:04:05+00'),
                  ('Sandbox', '100', 'app', 'pro.yearly', 'active', '1001', '2026-01-04 03:04:05+00'),
                  ('Production', '400', 'app', 'legacy.monthly', 'revoked', '4001', '2026-01-05 03:04:05+00'),
                  ('Sandbox', '300', 'app', 'pro.monthly', 'expired', '3001', '2026-01-06 03:04:05+00'),
                  ('Production', '600', 'app', 'news.weekly', 'active', '6001', '2026-01-07 03:04:05+00');
                INSERT INTO subscribers (app_user_id, environment, original_transaction_id, bundle_id) VALUES
                  ('reader-user', 'Sandbox', '100', 'app'), ('reader-user', 'Production', '400', 'app'),
                  ('reader-user', 'Production', '100', 'app'), ('reader-user', 'Production', '200', 'app'),
                  ('reader-user', 'Sandbox', '300', 'app'), ('reader-user', 'Production', '500', 'app'),
                  ('other-user', 'Production', '600', 'app'), ('other-user', 'Production', '200', 'app'),
                  ('no-facts-user', 'Sandbox', '300', 'app');
                """)
        }
    }

    /// What the per-environment queries give for a user's links (the reads before one statement).
    private func referenceViews(_ client: PostgresClient, appUserID: String, now: Date) async throws -> [SubscriptionView] {
        try await client.withConnection { session in
            let links = try session.query(
                """
                SELECT environment, original_transaction_id FROM subscribers WHERE app_user_id = \(appUserID)
                ORDER BY environment, original_transaction_id
                """)
            var views: [SubscriptionView] = []
            for environment in [AppStoreEnvironment.production, .sandbox] {
                let ids = try links.filter { try $0.decode("environment", as: String.self) == environment.rawValue }
                    .map { try $0.decode("original_transaction_id", as: String.self) }
                views += try SubscriptionReader.views(environment: environment, ids: ids, now: now, in: session)
            }
            return views
        }
    }

    private func expectSame(_ actual: [SubscriptionView], _ expected: [SubscriptionView]) {
        #expect(actual.map(\.snapshot) == expected.map(\.snapshot))
        #expect(actual.map(\.updatedAt) == expected.map(\.updatedAt))
        #expect(actual.map(\.transactions) == expected.map(\.transactions))
        #expect(actual.map(\.renewal) == expected.map(\.renewal))
    }

    @Test("a subscriber across groups and environments reads the same as per-environment queries")
    func subscriberAcrossGroupsAndEnvironments() async throws {
        try await TestDatabase.withClient { client, _ in
            try await storeFixture(client)
            let now = Date()
            let reader = SubscriptionReader(client: client)
            let views = try #require(try await reader.subscriber(appUserID: Self.user, now: now))
            expectSame(views, try await referenceViews(client, appUserID: Self.user, now: now))

            // Production before Sandbox, ids in order; the link without facts is left out.
            #expect(
                views.map { "\($0.snapshot.environment.rawValue)/\($0.snapshot.originalTransactionID)" }
                    == ["Production/100", "Production/200", "Production/400", "Production/500", "Sandbox/100"])
            #expect(views.map(\.snapshot.status) == [.active, .gracePeriod, .revoked, .active, .active])
            // The catalog's group wins over the receipt's; an unlisted product keeps the receipt's.
            #expect(views.map(\.snapshot.subscriptionGroupID) == ["20500000", "20600000", "999", "20700000", "20500000"])
            #expect(views[0].transactions.map(\.transactionID) == ["1001", "1002", "1003"])
            #expect(views[0].renewal?.autoRenewProductID == "pro.yearly")
            #expect(views[4].renewal?.expirationIntent == .customerCancelled)
            #expect(views[3].renewal == nil)

            #expect(try await reader.subscriber(appUserID: "no-facts-user", now: now)?.isEmpty == true)
            #expect(try await reader.subscriber(appUserID: "nobody", now: now) == nil)
        }
    }

    @Test("a subscription is read in Production first, with its transactions and renewal info")
    func subscriptionByOriginalTransactionID() async throws {
        try await TestDatabase.withClient { client, _ in
            try await storeFixture(client)
            let now = Date()
            let reader = SubscriptionReader(client: client)
            let view = try #require(try await reader.subscription(originalTransactionID: "100", now: now))
            let reference = try await client.withConnection { session in
                try SubscriptionReader.views(environment: .production, ids: ["100"], now: now, in: session)
            }
            expectSame([view], reference)
            #expect(view.snapshot.environment == .production)
            #expect(view.snapshot.appAccountToken == "5f0c2a54-2b7e-4a0e-9d55-1d2a3b4c5d6e")
            #expect(view.updatedAt == Date(timeIntervalSince1970: 1_767_323_045))

            // A row without facts reads as nothing; so does an id only Sandbox has no row for.
            #expect(try await reader.subscription(originalTransactionID: "300", now: now) == nil)
            #expect(try await reader.subscription(originalTransactionID: "500", now: now) == nil)
            #expect(try await reader.subscription(originalTransactionID: "missing", now: now) == nil)
        }
    }

    @Test("a subscriber read summarises the user's history per group as the facts and the whole catalog do")
    func subscriberReadUsage() async throws {
        try await TestDatabase.withClient { client, _ in
            try await storeFixture(client)
            let now = Date()
            let asked = ["pro.monthly", "pro.yearly", "news.weekly", "premium.monthly", "unknown.product"]
            let reader = SubscriptionReader(client: client)
            for user in [Self.user, "other-user", "no-facts-user", "nobody"] {
                let read = try await reader.subscriberRead(appUserID: user, now: now)
                let reference = try await client.withConnection { session in
                    let links = try session.query(
                        "SELECT environment, original_transaction_id FROM subscribers WHERE app_user_id = \(user)")
                    var transactions: [TransactionFact] = []
                    var renewals: [RenewalFact] = []
                    for environment in [AppStoreEnvironment.production, .sandbox] {
                        let ids = try links.filter { try $0.decode("environment", as: String.self) == environment.rawValue }
                            .map { try $0.decode("original_transaction_id", as: String.self) }
                        let stored = try StoredPurchases.load(environment: environment, originalTransactionIDs: ids, in: session)
                        transactions += stored.transactions.values.flatMap { $0 }
                        renewals += stored.renewals.values
                    }
                    return (
                        CustomerHistory(transactions: transactions, renewals: renewals), try ProductStore.catalog(in: session),
                        !links.isEmpty
                    )
                }
                #expect((read != nil) == reference.2)
                let usage = read?.usage(under: EntitlementPolicies(), at: now) ?? .none
                #expect(usage == GroupUsage(history: reference.0, catalog: reference.1, now: now))
                for policy in EligibilityPolicy.allCases {
                    #expect(
                        EligibilityRule.answers(for: asked, catalog: reference.1, usage: usage, policy: policy)
                            == EligibilityRule.answers(for: asked, catalog: reference.1, history: reference.0, now: now, policy: policy))
                }
            }
            let usage = try #require(try await reader.subscriberRead(appUserID: Self.user, now: now)).usage(
                under: EntitlementPolicies(), at: now)
            // The receipt's old group is replaced by the catalog's; the unlisted product keeps the receipt's.
            #expect(usage.purchased == [.group("20500000"), .group("20600000"), .group("999"), .group("20700000")])
            #expect(usage.offerUsed == [.group("20500000")])
            #expect(usage.entitled == [.group("20500000"), .group("20600000"), .group("20700000")])
            #expect(
                EligibilityRule.answers(for: asked, catalog: try await ProductStore(client: client).catalog(), usage: usage)
                    == [
                        "pro.monthly": .ineligible, "pro.yearly": .ineligible, "news.weekly": .ineligible,
                        "premium.monthly": .noIntroOffer, "unknown.product": .unknownProduct,
                    ])
        }
    }

    @Test("a read of one key keeps its connection's cached plan; a list of keys is planned on every call")
    func oneKeyReadsKeepTheirPlan() async throws {
        try await TestDatabase.withClient(maximumConnections: 1) { client, _ in
            try await storeFixture(client)
            // Tables of some size, analyzed: with a few rows every plan costs the same.
            try await client.withConnection { session in
                try session.runScript(
                    """
                    INSERT INTO transactions (environment, transaction_id, original_transaction_id, bundle_id, product_id,
                        purchase_date, expires_date, source)
                    SELECT 'Production', 'bulk-' || g, 'bulk-' || g / 3, 'app', 'pro.monthly', now(), now() + interval '30 days', 'v1'
                    FROM generate_series(1, 60000) g;
                    INSERT INTO subscriptions (environment, original_transaction_id, bundle_id, product_id, status, latest_transaction_id)
                    SELECT 'Production', 'bulk-' || g, 'app', 'pro.monthly', 'active', 'bulk-' || g * 3 FROM generate_series(1, 20000) g;
                    INSERT INTO subscribers (app_user_id, environment, original_transaction_id, bundle_id)
                    SELECT 'bulk-user-' || g, 'Production', 'bulk-' || g, 'app' FROM generate_series(1, 20000) g;
                    ANALYZE transactions; ANALYZE subscriptions; ANALYZE subscribers; ANALYZE renewal_info;
                    """)
            }
            let reader = SubscriptionReader(client: client)
            for _ in 0..<8 {
                _ = try await reader.subscriptionRead(originalTransactionID: "100")
                _ = try await reader.subscriberRead(appUserID: Self.user)
                _ = try await reader.subscriberReads(appUserIDs: [Self.user, "nobody"])
            }
            // The one connection ran every statement above; PostgreSQL counts its plans.
            let plans = try await client.query(
                """
                SELECT statement LIKE '%= ANY(%' AS by_list, generic_plans, custom_plans FROM pg_prepared_statements
                WHERE statement LIKE '%link_original_transaction_id%'
                """)
            let counts = try plans.map {
                (
                    try $0.decode("by_list", as: Bool.self), try $0.decode("generic_plans", as: Int64.self),
                    try $0.decode("custom_plans", as: Int64.self)
                )
            }
            let oneKey = counts.filter { !$0.0 }
            // PostgreSQL plans the first five calls for their values, then keeps the generic plan.
            #expect(oneKey.count == 2 && oneKey.allSatisfy { $0.1 >= 3 && $0.2 <= 5 }, "one-key reads: \(oneKey)")
            #expect(counts.contains { $0.0 && $0.1 == 0 && $0.2 == 8 }, "the list read: \(counts)")
        }
    }

    @Test("prepared reads survive a migration that adds columns while their connection lives")
    func preparedReadsSurviveAddedColumns() async throws {
        try await TestDatabase.withClient(maximumConnections: 1) { client, _ in
            try await storeFixture(client)
            let reader = SubscriptionReader(client: client)
            let now = Date()
            let before = try #require(try await reader.subscriber(appUserID: Self.user, now: now))
            let facts = try await client.withConnection { session in
                try StoredPurchases.load(environment: .production, originalTransactionIDs: ["100", "200"], in: session)
            }
            // The one connection has every statement above prepared; a later release adds columns.
            try await client.withConnection { session in
                try session.runScript(
                    """
                    ALTER TABLE transactions ADD COLUMN added_later text;
                    ALTER TABLE renewal_info ADD COLUMN added_later text;
                    ALTER TABLE subscriptions ADD COLUMN added_later text;
                    ALTER TABLE subscribers ADD COLUMN added_later text;
                    """)
            }
            expectSame(try #require(try await reader.subscriber(appUserID: Self.user, now: now)), before)
            let again = try await client.withConnection { session in
                try StoredPurchases.load(environment: .production, originalTransactionIDs: ["100", "200"], in: session)
            }
            #expect(again.renewals == facts.renewals)
            #expect(again.transactions.mapValues { $0.count } == facts.transactions.mapValues { $0.count })
        }
    }
}
