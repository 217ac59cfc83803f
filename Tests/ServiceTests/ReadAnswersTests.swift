import ContractDocuments
import Crypto
import Foundation
import Logging
import Postgres
import Store
import StoredAnswers
import Subscriptions
import TestSupport
import Testing
import UseCases

/// Stored answers are served only while they are what the facts give at the time of the
/// read: every change to a fact, a link or the catalog, and the first period or grace end
/// they describe, makes the next read compute again (Schema/0007_read_answers.sql).
@Suite("Stored read answers: served only while current")
struct ReadAnswersTests {
    static let user = "answers-user"
    static let asked = ["pro.monthly", "pro.yearly", "news.weekly", "premium.monthly", "unknown.product"]

    /// `answers-user`: Production 100 (pro.monthly, the first period a trial, active for 20
    /// more days) and Production 200 (news.weekly, lapsed, in billing retry with a grace
    /// period ending in 3 days). Facts are dated from `now`.
    static func storeFixture(_ client: PostgresClient, now: Date) async throws {
        try await client.withTransaction { session in
            try session.execute(
                """
                INSERT INTO products (product_id, bundle_id, type, subscription_group_id, period,
                    intro_payment_mode, intro_period, intro_periods, intro_price) VALUES
                  ('pro.monthly', 'app', 'auto_renewable', '20500000', 'P1M', 'free_trial', 'P1W', 1, 0),
                  ('pro.yearly', 'app', 'auto_renewable', '20500000', 'P1Y', 'pay_up_front', 'P3M', 1, 9.99),
                  ('news.weekly', 'app', 'auto_renewable', '20600000', 'P1W', 'pay_as_you_go', 'P1W', 4, 0.49),
                  ('premium.monthly', 'app', 'auto_renewable', '20700000', 'P1M', NULL, NULL, NULL, NULL)
                """)
            try session.execute(
                """
                INSERT INTO transactions (environment, transaction_id, original_transaction_id, bundle_id, product_id,
                    subscription_group_id, purchase_date, expires_date, is_trial_period, source) VALUES
                  ('Production', '1001', '100', 'app', 'pro.monthly', '20500000', \(now)::timestamptz - interval '40 days', \(now)::timestamptz - interval '10 days', true, 'v1'),
                  ('Production', '1002', '100', 'app', 'pro.monthly', '20500000', \(now)::timestamptz - interval '10 days', \(now)::timestamptz + interval '20 days', false, 'v1'),
                  ('Production', '2001', '200', 'app', 'news.weekly', '20600000', \(now)::timestamptz - interval '9 days', \(now)::timestamptz - interval '2 days', false, 'v2')
                """)
            try session.execute(
                """
                INSERT INTO renewal_info (environment, original_transaction_id, bundle_id, product_id, auto_renew_product_id,
                    auto_renew_status, expiration_intent, is_in_billing_retry_period, grace_period_expires_date, observed_at) VALUES
                  ('Production', '100', 'app', 'pro.monthly', 'pro.monthly', true, NULL, false, NULL, \(now)),
                  ('Production', '200', 'app', 'news.weekly', 'news.weekly', true, 'billing_error', true, \(now)::timestamptz + interval '3 days', \(now))
                """)
            try session.execute(
                """
                INSERT INTO subscriptions (environment, original_transaction_id, bundle_id, product_id, status, latest_transaction_id, updated_at) VALUES
                  ('Production', '100', 'app', 'pro.monthly', 'active', '1002', '2026-01-02 03:04:05+00'),
                  ('Production', '200', 'app', 'news.weekly', 'grace_period', '2001', '2026-01-03 03:04:05+00')
                """)
            try session.execute(
                """
                INSERT INTO subscribers (app_user_id, environment, original_transaction_id, bundle_id) VALUES
                  (\(Self.user), 'Production', '100', 'app'), (\(Self.user), 'Production', '200', 'app')
                """)
        }
    }

    private static func answers(_ client: PostgresClient) -> ReadAnswers {
        ReadAnswers(database: client, logger: Logger(label: "test"))
    }

    /// The bodies computed from the facts without any stored answer.
    private func computed(_ client: PostgresClient, now: Date) async throws -> (subscription: String, subscriber: String) {
        let reader = SubscriptionReader(client: client)
        let view = try #require(try await reader.subscription(originalTransactionID: "100", now: now))
        let read = try #require(try await reader.subscriberRead(appUserID: Self.user, now: now))
        let catalog = try await ProductStore(client: client).catalog()
        let document = SubscriberDocument(appUserID: Self.user, read: read, catalog: catalog, policies: EntitlementPolicies(), now: now)
        return (
            String(
                decoding: ContractJSONWriter.bytes(
                    of: SubscriptionDocument(view, includeTransactions: true, pricing: PurchasePricing(), catalog: catalog)),
                as: UTF8.self),
            String(decoding: ContractJSONWriter.bytes(of: document), as: UTF8.self)
        )
    }

    private func version(_ client: PostgresClient, _ sql: PostgresQuery) async throws -> Int64 {
        try #require(try await client.query(sql).first).decode("version")
    }

    @Test("an answer is computed once, then served as stored, the same bytes")
    func computedThenStored() async throws {
        try await TestDatabase.withClient { client, _ in
            let now = Date()
            try await Self.storeFixture(client, now: now)
            let answers = Self.answers(client)
            let expected = try await computed(client, now: now)

            let first = try #require(try await answers.subscriptionBody(originalTransactionID: "100", now: now))
            let second = try #require(try await answers.subscriptionBody(originalTransactionID: "100", now: now.addingTimeInterval(60)))
            #expect(first.origin == .computed && second.origin == .stored)
            #expect(first.body == expected.subscription && second.body == expected.subscription)

            let user = try #require(try await answers.subscriberBody(appUserID: Self.user, now: now))
            let userAgain = try #require(try await answers.subscriberBody(appUserID: Self.user, now: now.addingTimeInterval(60)))
            #expect(user.origin == .computed && userAgain.origin == .stored)
            #expect(user.body == expected.subscriber && userAgain.body == expected.subscriber)

            // Unknown keys are computed (and found missing) every time; nothing is stored for them.
            #expect(try await answers.subscriptionBody(originalTransactionID: "missing", now: now) == nil)
            #expect(try await answers.subscriberBody(appUserID: "nobody", now: now) == nil)
            #expect(try await client.query("SELECT 1 FROM subscriber_answers WHERE app_user_id = 'nobody'").isEmpty)
        }
    }

    @Test("what stored answers hold is pinned to ReadAnswers.format")
    func storedFormatIsPinned() async throws {
        try await TestDatabase.withClient { client, _ in
            let now = Date(timeIntervalSince1970: 1_780_000_000)
            try await Self.storeFixture(client, now: now)
            let bodies = try await computed(client, now: now)
            let usage = try #require(try await SubscriptionReader(client: client).subscriberRead(appUserID: Self.user, now: now))
                .usage(under: EntitlementPolicies(), at: now)
            let usageText = [usage.offerUsed, usage.purchased, usage.entitled].map { $0.map(\.text).sorted().joined(separator: ",") }
            let stored = ([bodies.subscription, bodies.subscriber] + usageText).joined(separator: "\n")
            let digest = SHA256.hash(data: Data(stored.utf8)).map { String(format: "%02x", $0) }.joined()
            // A release that changes the documents or the usage keys must not serve the answers
            // an older release stored: raise `ReadAnswers.format` and pin the new digest here.
            let pinned: [Int32: String] = [
                1: "c20531458ddc24d44d0fb6ece24fb47a27f751100cb728b6adb670aa2d77457f",
                // Entitlements and purchases in the subscriber document, revocation_type in transactions.
                2: "ecb71b6f696fc5fab9b267cfe9e24447c10c8606ade7e3dcc54e0d12c6a82f06",
                // apple_accounts in the subscriber document.
                3: "7feb857a38622d933f4534de815cffc801c943e57e2225026e259aa4cc84a6df",
                // eligible_win_back_offer_ids in the subscription document.
                4: "44c5cee2fac74cad3fd9d6f4aca881a2bd6432403048ef08940fd57e63566c46",
                // price, currency, storefront, price_source and proceeds on transactions, subscriptions and purchases.
                5: "cd2ff2b226f81ec320f0023f628ab4470d77d47e4bce5e36b45fcda8684da12b",
                // renewal_price and renewal_currency on subscriptions.
                6: "f6e53723dd8a5e5f342395e49ce00ff9a417eee53f8562547b830ca4d6cdb149",
                // billing_plan and commitment_ends_at on subscriptions.
                7: "810a909d5efa12fb300c64b49dc821db4d35f0142539b629c0cb045bffe21e92",
            ]
            #expect(pinned[ReadAnswers.format] == digest, "stored answers changed: raise ReadAnswers.format and pin \(digest) for it")
        }
    }

    @Test("the stored format changes with the money settings proceeds are estimated under")
    func storedFormatFoldsMoney() {
        let policies = EntitlementPolicies()
        let taxed = PurchasePricing(taxRates: TaxRates(["DEU": Decimal(string: "0.19")!]))
        let retaxed = PurchasePricing(taxRates: TaxRates(["DEU": Decimal(string: "0.2")!]))
        #expect(ReadAnswers.storedFormat(policies: policies) == ReadAnswers.format)
        #expect(ReadAnswers.storedFormat(policies: policies, pricing: PurchasePricing()) == ReadAnswers.format)
        let formats = [taxed, retaxed].map { ReadAnswers.storedFormat(policies: policies, pricing: $0) }
        #expect(Set(formats + [ReadAnswers.format]).count == 3)
        #expect(formats[0] == ReadAnswers.storedFormat(policies: policies, pricing: taxed), "the same settings, the same format")
    }

    @Test("a change to a fact, a link or the catalog makes the next read compute again")
    func changesInvalidate() async throws {
        try await TestDatabase.withClient { client, _ in
            let now = Date()
            try await Self.storeFixture(client, now: now)
            let answers = Self.answers(client)
            func origins() async throws -> [ReadAnswers.Origin?] {
                [
                    try await answers.subscriptionBody(originalTransactionID: "100", now: now)?.origin,
                    try await answers.subscriberBody(appUserID: Self.user, now: now)?.origin,
                ]
            }
            _ = try await origins()
            #expect(try await origins() == [.stored, .stored])

            // A refund of the current period: both answers change, and say so.
            try await client.execute(
                "UPDATE transactions SET cancellation_date = \(now), cancellation_reason = '0' WHERE transaction_id = '1002'")
            #expect(try await origins() == [.computed, .computed])
            let refunded = try #require(try await answers.subscriptionBody(originalTransactionID: "100", now: now))
            #expect(refunded.origin == .stored && refunded.body.contains(#""status":"revoked""#))
            #expect(refunded.body == (try await computed(client, now: now)).subscription)

            // Renewal info of the other subscription: only the subscriber's answer depends on it.
            try await client.execute("UPDATE renewal_info SET auto_renew_status = false WHERE original_transaction_id = '200'")
            #expect(try await origins() == [.stored, .computed])

            // A new link: the user's answer only.
            try await client.execute(
                """
                INSERT INTO subscribers (app_user_id, environment, original_transaction_id, bundle_id) VALUES (\(Self.user), 'Sandbox', '100', 'app')
                """)
            #expect(try await origins() == [.stored, .computed])

            // An unchanged row written again changes nothing.
            try await client.execute("UPDATE renewal_info SET auto_renew_status = auto_renew_status")
            #expect(try await origins() == [.stored, .stored])

            // The catalog: every answer.
            try await client.execute("UPDATE products SET subscription_group_id = '20599999' WHERE product_id = 'pro.monthly'")
            #expect(try await origins() == [.computed, .computed])
            #expect(
                try await answers.subscriptionBody(originalTransactionID: "100", now: now)?.body.contains(
                    #""subscription_group_id":"20599999""#) == true)
        }
    }

    @Test("an answer is not served from the first period or grace end it describes")
    func expiresWithTheFacts() async throws {
        try await TestDatabase.withClient { client, _ in
            // Whole seconds: the dates below are exact instants in PostgreSQL's microseconds too.
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            try await Self.storeFixture(client, now: now)
            let answers = Self.answers(client)
            let day: TimeInterval = 86_400
            _ = try await answers.subscriberBody(appUserID: Self.user, now: now)
            // The grace period of 200 ends in 3 days: up to then the stored answer holds.
            #expect(try await answers.subscriberBody(appUserID: Self.user, now: now + 3 * day - 1)?.origin == .stored)
            let graceOver = try #require(try await answers.subscriberBody(appUserID: Self.user, now: now + 3 * day))
            #expect(graceOver.origin == .computed && graceOver.body.contains(#""status":"billing_retry""#))
            #expect(!graceOver.body.contains(#""status":"grace_period""#))
            // Then 100's period ends in 20 days.
            #expect(try await answers.subscriberBody(appUserID: Self.user, now: now + 20 * day - 1)?.origin == .stored)
            let lapsed = try #require(try await answers.subscriberBody(appUserID: Self.user, now: now + 20 * day))
            #expect(lapsed.origin == .computed && lapsed.body.contains(#""entitled_groups":[]"#))
            // No date is left: the answer holds for good.
            #expect(try await answers.subscriberBody(appUserID: Self.user, now: now + 3_650 * day)?.origin == .stored)
        }
    }

    @Test("an answer computed from facts that changed meanwhile is stored but never served")
    func staleAnswerIsNotServed() async throws {
        try await TestDatabase.withClient { client, _ in
            let now = Date()
            try await Self.storeFixture(client, now: now)
            let store = AnswerStore(client: client, format: ReadAnswers.format)
            guard case .stale(let before) = try await store.subscriptionLookup(originalTransactionID: "100", now: now),
                case .stale(let usersBefore) = try await store.subscriberLookup(appUserID: Self.user, now: now)
            else {
                Issue.record("an answer was current before any was stored")
                return
            }
            // A notification is applied between the lookup (and so the fact read after it) and
            // the write of the answer.
            try await client.execute(
                "UPDATE transactions SET cancellation_date = \(now), cancellation_reason = '0' WHERE transaction_id = '1002'")
            try await store.store([SubscriptionAnswer(originalTransactionID: "100", body: "stale", stamp: before, validUntil: nil)])
            try await store.store([
                SubscriberAnswer(
                    appUserID: Self.user, body: "stale", entitlementsBody: "stale", usage: .none, stamp: usersBefore, validUntil: nil)
            ])
            guard case .stale = try await store.subscriptionLookup(originalTransactionID: "100", now: now),
                case .stale = try await store.subscriberLookup(appUserID: Self.user, now: now)
            else {
                Issue.record("a stale answer was served")
                return
            }
            guard case .notStored = try await store.eligibilityFacts(appUserID: Self.user, now: now) else {
                Issue.record("stale usage was served")
                return
            }
            let answers = Self.answers(client)
            #expect(
                try await answers.subscriptionBody(originalTransactionID: "100", now: now)?.body.contains(#""status":"revoked""#) == true)
        }
    }

    @Test("a transaction that writes many rows raises each answer's version once")
    func oneRaisePerTransaction() async throws {
        try await TestDatabase.withClient { client, _ in
            let now = Date()
            try await Self.storeFixture(client, now: now)
            let subscription: PostgresQuery = "SELECT version FROM subscription_answers WHERE original_transaction_id = '100'"
            let subscriber: PostgresQuery = "SELECT version FROM subscriber_answers WHERE app_user_id = \(Self.user)"
            let startSubscription = try await version(client, subscription)
            let startSubscriber = try await version(client, subscriber)
            try await client.withTransaction { session in
                try session.execute("UPDATE transactions SET is_upgraded = NOT is_upgraded WHERE original_transaction_id = '100'")
                try session.execute(
                    "UPDATE renewal_info SET auto_renew_status = NOT auto_renew_status WHERE original_transaction_id = '100'")
                try session.execute("UPDATE subscriptions SET updated_at = now() WHERE original_transaction_id = '100'")
            }
            #expect(try await version(client, subscription) == startSubscription + 1)
            #expect(try await version(client, subscriber) == startSubscriber + 1)
            try await client.execute(
                "UPDATE renewal_info SET auto_renew_status = NOT auto_renew_status WHERE original_transaction_id = '100'")
            #expect(try await version(client, subscription) == startSubscription + 2)
        }
    }

    @Test("eligibility from stored usage gives what the facts give, for every policy and for new customers")
    func eligibilityFromStoredUsage() async throws {
        try await TestDatabase.withClient { client, _ in
            let now = Date()
            try await Self.storeFixture(client, now: now)
            let history = try #require(try await SubscriptionReader(client: client).subscriberRead(appUserID: Self.user, now: now))
            let catalog = try await ProductStore(client: client).catalog()
            for policy in EligibilityPolicy.allCases {
                let service = EligibilityService(policy: policy, readAnswers: Self.answers(client))
                try await client.execute("UPDATE products SET updated_at = now()")  // every stored answer goes stale
                let first = try await service.answersWithOrigin(appUserID: Self.user, productIDs: Self.asked, now: now)
                let second = try await service.answersWithOrigin(appUserID: Self.user, productIDs: Self.asked, now: now)
                #expect(first.origin == .computed && second.origin == .stored)
                let facts = CustomerHistory(
                    transactions: history.views.flatMap(\.transactions), renewals: history.views.compactMap(\.renewal))
                let expected = EligibilityRule.answers(for: Self.asked, catalog: catalog, history: facts, now: now, policy: policy)
                #expect(first.answers == expected && second.answers == expected)
                let newCustomer = try await service.answersWithOrigin(appUserID: "nobody", productIDs: Self.asked, now: now)
                #expect(newCustomer.origin == .computed)
                #expect(
                    newCustomer.answers
                        == EligibilityRule.answers(for: Self.asked, catalog: catalog, history: .empty, now: now, policy: policy))
            }
            let answers = try await EligibilityService(policy: .apple, readAnswers: Self.answers(client))
                .answers(appUserID: Self.user, productIDs: Self.asked, now: now)
            // The trial used pro.monthly's group; news.weekly's is in its grace period (entitled).
            #expect(
                answers == [
                    "pro.monthly": .ineligible, "pro.yearly": .ineligible, "news.weekly": .ineligible,
                    "premium.monthly": .noIntroOffer, "unknown.product": .unknownProduct,
                ])
        }
    }

    @Test("rebuild stores every answer, and reads then serve them as stored")
    func rebuildStoresEveryAnswer() async throws {
        try await TestDatabase.withClient { client, _ in
            let now = Date()
            try await Self.storeFixture(client, now: now)
            try await client.execute(
                """
                INSERT INTO subscribers (app_user_id, environment, original_transaction_id, bundle_id) VALUES ('second-user', 'Production', '200', 'app')
                """)
            let answers = Self.answers(client)
            let count = try await answers.rebuild(batchSize: 1, concurrency: 2, now: { now })
            #expect(count == ReadAnswers.RebuildCount(subscriptions: 2, subscribers: 2))
            let expected = try await computed(client, now: now)
            #expect(try await answers.subscriptionBody(originalTransactionID: "100", now: now)?.origin == .stored)
            #expect(try await answers.subscriptionBody(originalTransactionID: "200", now: now)?.origin == .stored)
            let user = try await answers.subscriberBody(appUserID: Self.user, now: now)
            #expect(user?.origin == .stored && user?.body == expected.subscriber)
            #expect(try await answers.subscriberBody(appUserID: "second-user", now: now)?.origin == .stored)
            let service = EligibilityService(policy: .apple, readAnswers: Self.answers(client))
            #expect(try await service.answersWithOrigin(appUserID: Self.user, productIDs: Self.asked, now: now).origin == .stored)
        }
    }

    @Test("a subscriber whose subscription row is missing is computed every time")
    func missingSubscriptionRowIsNotStored() async throws {
        try await TestDatabase.withClient { client, _ in
            let now = Date()
            try await Self.storeFixture(client, now: now)
            try await client.execute("DELETE FROM subscriptions WHERE original_transaction_id = '200'")
            let answers = Self.answers(client)
            #expect(try await answers.subscriberBody(appUserID: Self.user, now: now)?.origin == .computed)
            #expect(try await answers.subscriberBody(appUserID: Self.user, now: now)?.origin == .computed)
        }
    }
}
