import Foundation
import Logging
import Postgres
import StoredAnswers
import Subscriptions
import TestSupport
import Testing

/// Purchases and subscriptions in the read answers and `subscriptionctl` carry `price`,
/// `currency`, `storefront`, `price_source` and `proceeds`, computed from the stored facts,
/// the catalog and the money settings of the process that reads them.
@Suite("Money on every purchase: the read answers and subscriptionctl")
struct PurchaseMoneyTests {
    static let user = "money-user"
    static let app = "com.example.app"

    /// Tax in Germany, the app in the Small Business Program since 2020.
    static let configuration = """
        {"tax_rates": {"DEU": 0.19},
         "apps": [{"bundle_id": "com.example.app", "shared_secret": "other-shared-secret-0123456789",
                   "small_business_program": [{"from": "2020-01-01", "until": null}]}]}
        """

    static var pricing: PurchasePricing {
        PurchasePricing(
            taxRates: TaxRates(["DEU": Decimal(string: "0.19")!]),
            smallBusiness: [app: SmallBusinessProgram(periods: [.init(from: UTCDay.parse("2020-01-01")!, until: nil)])])
    }

    /// The catalog (imported as an operator would) and `money-user`'s purchases, dated from
    /// `now`: subscription 100 (v2, Apple's price in the USA; its first period refunded half),
    /// subscription 200 (v1 in Germany: the catalog's EUR price), a v1 consumable (the
    /// catalog's default price) and a v1 non-consumable no one priced.
    static func storeFixture(_ client: PostgresClient, url: String, now: Date) async throws {
        let catalog = try TemporaryFile.write(
            """
            {"products": [
              {"product_id": "pro.monthly", "bundle_id": "com.example.app", "type": "auto_renewable",
               "subscription_group_id": "20500000", "period": "P1M", "price": "9.99", "currency": "USD",
               "prices": {"DEU": {"price": "8.99", "currency": "EUR"}}},
              {"product_id": "coins", "bundle_id": "com.example.app", "type": "consumable", "price": "4.99", "currency": "USD"},
              {"product_id": "lifetime", "bundle_id": "com.example.app", "type": "non_consumable"}]}
            """, name: "catalog.json")
        #expect(try await CLI.run(["products", "import", catalog], databaseURL: url).status == 0)
        try await client.withTransaction { session in
            try session.execute(
                """
                INSERT INTO transactions (environment, transaction_id, original_transaction_id, bundle_id, product_id, product_type,
                    subscription_group_id, purchase_date, expires_date, is_trial_period, source, price_milliunits, currency, storefront,
                    cancellation_date, revocation_type, revocation_percentage) VALUES
                  ('Production', '1001', '100', 'com.example.app', 'pro.monthly', 'auto_renewable', '20500000',
                   \(now)::timestamptz - interval '40 days', \(now)::timestamptz - interval '10 days', false, 'v2', 9990, 'USD', 'USA',
                   \(now)::timestamptz - interval '20 days', 'REFUND_PRORATED', 50000),
                  ('Production', '1002', '100', 'com.example.app', 'pro.monthly', 'auto_renewable', '20500000',
                   \(now)::timestamptz - interval '10 days', \(now)::timestamptz + interval '20 days', false, 'v2', 9990, 'USD', 'USA',
                   NULL, NULL, NULL),
                  ('Production', '2001', '200', 'com.example.app', 'pro.monthly', NULL, '20500000',
                   \(now)::timestamptz - interval '5 days', \(now)::timestamptz + interval '25 days', false, 'v1', NULL, NULL, 'DEU',
                   NULL, NULL, NULL),
                  ('Production', '3001', '3001', 'com.example.app', 'coins', NULL, NULL,
                   \(now)::timestamptz - interval '3 days', NULL, false, 'v1', NULL, NULL, NULL, NULL, NULL, NULL),
                  ('Production', '4001', '4001', 'com.example.app', 'lifetime', NULL, NULL,
                   \(now)::timestamptz - interval '2 days', NULL, false, 'v1', NULL, NULL, NULL, NULL, NULL, NULL)
                """)
            try session.execute(
                """
                INSERT INTO subscriptions (environment, original_transaction_id, bundle_id, product_id, status, latest_transaction_id, updated_at) VALUES
                  ('Production', '100', 'com.example.app', 'pro.monthly', 'active', '1002', '2026-01-02 03:04:05+00'),
                  ('Production', '200', 'com.example.app', 'pro.monthly', 'active', '2001', '2026-01-02 03:04:05+00')
                """)
            try session.execute(
                """
                INSERT INTO subscribers (app_user_id, environment, original_transaction_id, bundle_id) VALUES
                  (\(Self.user), 'Production', '100', 'com.example.app'), (\(Self.user), 'Production', '200', 'com.example.app'),
                  (\(Self.user), 'Production', '3001', 'com.example.app'), (\(Self.user), 'Production', '4001', 'com.example.app')
                """)
        }
    }

    static func object(_ body: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
    }

    /// `price price_source proceeds currency storefront` of a purchase or subscription object.
    static func money(_ object: [String: Any]?) -> String {
        ["price", "price_source", "proceeds", "currency", "storefront"].map { key in
            (object?[key] as? String) ?? (object?[key] is NSNull ? "null" : "absent")
        }.joined(separator: " ")
    }

    @Test("subscription and subscriber answers price each purchase; new money settings are not served stale answers")
    func answers() async throws {
        try await TestDatabase.withClient { client, database in
            let now = Date()
            try await Self.storeFixture(client, url: database.url, now: now)
            let logger = Logger(label: "test")
            let plain = ReadAnswers(database: client, logger: logger)
            let configured = ReadAnswers(database: client, pricing: Self.pricing, logger: logger)

            // Without tax rates or the program: 30 % commission.
            let first = try #require(try await plain.subscriptionBody(originalTransactionID: "100", now: now))
            let subscription = try Self.object(first.body)
            let transactions = try #require(subscription["transactions"] as? [[String: Any]])
            #expect(Self.money(subscription) == "9.99 apple 6.993 USD USA", "the latest period's")
            #expect(Self.money(transactions.first) == "9.99 apple 3.497 USD USA", "half refunded: the price charged, proceeds of half")
            #expect(Self.money(transactions.last) == "9.99 apple 6.993 USD USA")
            #expect(try await plain.subscriptionBody(originalTransactionID: "100", now: now)?.origin == .stored)

            // Restarted with tax and the Small Business Program: computed again, never the stored answer.
            let again = try #require(try await configured.subscriptionBody(originalTransactionID: "100", now: now))
            #expect(again.origin == .computed)
            let taxed = try Self.object(again.body)
            #expect(Self.money(taxed) == "9.99 apple 8.492 USD USA")
            #expect(Self.money((taxed["transactions"] as? [[String: Any]])?.first) == "9.99 apple 4.246 USD USA")
            #expect(try await configured.subscriptionBody(originalTransactionID: "100", now: now)?.origin == .stored)
            #expect(try await plain.subscriptionBody(originalTransactionID: "100", now: now)?.origin == .computed)

            let v1 = try Self.object(try #require(try await configured.subscriptionBody(originalTransactionID: "200", now: now)).body)
            #expect(Self.money(v1) == "8.99 catalog 6.421 EUR DEU", "the storefront's price, tax and 15 % off")

            let subscriber = try Self.object(try #require(try await configured.subscriberBody(appUserID: Self.user, now: now)).body)
            let subscriptions = try #require(subscriber["subscriptions"] as? [[String: Any]])
            #expect(subscriptions.map(Self.money) == ["9.99 apple 8.492 USD USA", "8.99 catalog 6.421 EUR DEU"])
            #expect(subscriptions.allSatisfy { $0["transactions"] == nil })
            let purchases = try #require(subscriber["purchases"] as? [[String: Any]])
            #expect(purchases.map(Self.money) == ["4.99 catalog 4.242 USD null", "null null null null null"])

            // A catalog price change is a catalog change: the next read prices with it.
            let repriced = try TemporaryFile.write(
                """
                {"products": [
                  {"product_id": "pro.monthly", "bundle_id": "com.example.app", "type": "auto_renewable",
                   "subscription_group_id": "20500000", "period": "P1M", "price": "9.99", "currency": "USD"},
                  {"product_id": "coins", "bundle_id": "com.example.app", "type": "consumable", "price": "4.99", "currency": "USD"},
                  {"product_id": "lifetime", "bundle_id": "com.example.app", "type": "non_consumable", "price": "20", "currency": "USD"}]}
                """, name: "repriced.json")
            #expect(try await CLI.run(["products", "import", repriced], databaseURL: database.url).status == 0)
            let after = try Self.object(try #require(try await configured.subscriberBody(appUserID: Self.user, now: now)).body)
            #expect(
                (after["subscriptions"] as? [[String: Any]])?.map(Self.money) == ["9.99 apple 8.492 USD USA", "9.99 catalog 7.136 USD DEU"])
            #expect((after["purchases"] as? [[String: Any]])?.last.map(Self.money) == "20.00 catalog 17.00 USD null")
        }
    }

    @Test("subscriptionctl subscriber show and subscription show print price, source and proceeds, --json too")
    func commandLine() async throws {
        try await TestDatabase.withClient { client, database in
            try await Self.storeFixture(client, url: database.url, now: Date())
            let settings = ["SUBSCRIPTIOND_CONFIG": try TemporaryFile.write(Self.configuration, name: "config.json")]
            let shown = try await CLI.run(["subscriber", "show", Self.user], databaseURL: database.url, environment: settings)
            #expect(shown.status == 0, "\(shown.stderr)")
            for text in ["PRICE", "PROCEEDS", "9.99 USD (apple)", "8.492 USD", "8.99 EUR (catalog)", "6.421 EUR", "4.99 USD (catalog)"] {
                #expect(shown.stdout.contains(text), "\(text) in \(shown.stdout)")
            }
            let json = try Self.object(
                try await CLI.run(["subscriber", "show", Self.user, "--json"], databaseURL: database.url, environment: settings).stdout)
            #expect(
                (json["purchases"] as? [[String: Any]])?.map(Self.money) == ["4.99 catalog 4.242 USD null", "null null null null null"])

            let story = try await CLI.run(["subscription", "show", "100"], databaseURL: database.url, environment: settings)
            #expect(story.status == 0, "\(story.stderr)")
            for text in ["9.99 USD (apple), proceeds about 8.492 USD in USA", "4.246 USD", "STOREFRONT"] {
                #expect(story.stdout.contains(text), "\(text) in \(story.stdout)")
            }
            let storyJSON = try Self.object(
                try await CLI.run(["subscription", "show", "200", "--json"], databaseURL: database.url, environment: settings).stdout)
            #expect(Self.money(storyJSON) == "8.99 catalog 6.421 EUR DEU")
            #expect(storyJSON["status_reason"] is String)
        }
    }
}
