import Access
import AppStore
import CatalogFiles
import Composition
import Crypto
import Foundation
import Postgres
import Settings
import Store
import Subscriptions
import TestSupport
import Testing

@testable import UseCases

/// DESIGN.md, "Offers and trust boundaries", at the use cases: audiences count only what
/// grants, forgetting is final, and consent answers only for a purchase's owner.
@Suite("Use case: trust boundaries (offers, forgetting, consent)")
struct TrustBoundaryTests {
    static let bundleID = UseCaseHarness.bundleID

    /// The apps of `configuration` (a `SUBSCRIPTIOND_CONFIG` text) with an In-App Purchase key.
    static func apps(_ configuration: String) throws -> AppRegistry {
        let key = try TemporaryFile.write(P256.Signing.PrivateKey().pemRepresentation, name: "trust-key.p8")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
        let config = try TemporaryFile.write(configuration, name: "trust-config.json")
        defer {
            try? FileManager.default.removeItem(atPath: key)
            try? FileManager.default.removeItem(atPath: config)
        }
        return try ServiceConfiguration.load(environment: [
            "SUBSCRIPTIOND_CONFIG": config, "APPSTORE_BUNDLE_ID": bundleID, "APPSTORE_SHARED_SECRET": RunningService.sharedSecret,
            "APPSTORE_ISSUER_ID": "issuer-uuid", "APPSTORE_KEY_ID": "TRUSTKEY01", "APPSTORE_PRIVATE_KEY_FILE": key,
        ]).apps
    }

    /// The demo catalog, the yearly plan offering `comeback50` to lapsed customers.
    static func importCatalog(_ database: PostgresClient) async throws {
        let url = TestEnvironment.repositoryRoot().appendingPathComponent("Deploy/local/demo-catalog.json")
        let catalog = try CatalogParser.parse(json: Array(try Data(contentsOf: url))).get()
        var products = catalog.products
        let yearly = try #require(products.firstIndex { $0.productID == "com.example.pro.yearly" })
        products[yearly].promotionalOffers = [PromotionalOfferRule(offerID: "comeback50", audiences: [.lapsed])]
        try await ProductStore(client: database).replace(with: products, entitlements: catalog.entitlements)
    }

    /// One period of `id` in `environment`, `daysAgo` days ago, 30 days long.
    static func period(
        _ id: String, of original: String, _ environment: AppStoreEnvironment, daysAgo: Double, token: String? = nil,
        trial: Bool = false
    ) -> FactBatch {
        let start = Date().addingTimeInterval(-daysAgo * 86_400)
        let fact = TransactionFact(
            transactionID: id, originalTransactionID: original, productID: "com.example.pro.monthly", bundleID: bundleID,
            environment: environment, subscriptionGroupID: "20500000", purchaseDate: start,
            expiresDate: start.addingTimeInterval(30 * 86_400),
            isTrialPeriod: trial, source: .v2, statedAt: Date(), appAccountToken: token, productType: .autoRenewable)
        return FactBatch(
            facts: ReceiptFacts(environment: environment, bundleID: bundleID, transactions: [fact], renewals: [], latestReceipt: nil),
            observedAt: Date())
    }

    @Test(
        "a lapsed Sandbox-only customer of an app that ignores Sandbox gets no production win-back offer, and a Sandbox trial does not spend the intro offer"
    )
    func sandboxDoesNotCount() async throws {
        try await UseCaseHarness.with { harness in
            try await Self.importCatalog(harness.database)
            for (policy, counts) in [("ignore", false), ("grant", true)] {
                let apps = try Self.apps(#"{"apps":[{"bundle_id":"\#(Self.bundleID)","sandbox_entitlement":"\#(policy)"}]}"#)
                let user = "tester-\(policy)"
                let original = policy == "ignore" ? "6100000000000001" : "6100000000000002"
                // A free TestFlight subscription that started with a trial and lapsed 40 days ago.
                try await FactApplier(database: harness.database, apps: apps).apply(
                    [Self.period(original, of: original, .sandbox, daysAgo: 70, trial: true)], appUserID: user)
                let offers = OfferSignatures(database: harness.database, apps: apps, eligibilityPolicy: .apple, logger: harness.logger)
                let offer = {
                    try await offers.promotionalOffer(
                        appUserID: user, productID: "com.example.pro.yearly", offerID: "comeback50", format: .v2, transactionID: original,
                        bundleID: nil, by: .cli(user: "test"))
                }
                if counts {
                    guard case .v2 = try await offer() else { throw UseCaseError.malformed("expected a v2 offer") }
                } else {
                    await #expect(throws: UseCaseError.notEligible("\(user) is not among the customers offer comeback50 is for (lapsed)")) {
                        _ = try await offer()
                    }
                }
                let eligibility = try await offers.eligibility(
                    appUserID: user, transactionID: original, productIDs: ["com.example.pro.monthly"], bundleID: nil)
                #expect(eligibility.answers == ["com.example.pro.monthly": counts ? .ineligible : .eligible], "\(policy)")
            }
        }
    }

    @Test(
        "forgetting is final: a renewal carrying the forgotten user's token links nobody, no row names the user, and a token asked again is new"
    )
    func forgettingIsFinal() async throws {
        try await UseCaseHarness.with { harness in
            let user = "forget-me@example.com"
            let tokens = AppAccountTokens(database: harness.database, apps: harness.apps)
            let token = try await tokens.token(for: user, bundleID: nil)
            let facts = FactApplier(database: harness.database, apps: harness.apps)
            try await facts.apply([Self.period("6200000000000001", of: "6200000000000001", .production, daysAgo: 40, token: token)])
            #expect(try await harness.count("SELECT count(*) AS n FROM subscribers WHERE app_user_id = \(user)") == 1, "the token linked")
            try await harness.database.execute(
                """
                INSERT INTO notifications (source, dedupe_key, environment, bundle_id, app_user_id, body, state)
                VALUES ('receipt', 'queued-receipt:forget-test', 'Production', \(Self.bundleID), \(user),
                        jsonb_build_object('app_user_id', \(user)::text, 'receipt_data', 'cmVjZWlwdA==', 'bundle_id', \(Self.bundleID)::text),
                        'processed')
                """)

            _ = try await SubscriberForgetting(database: harness.database).forget(appUserID: user, actor: "test")
            try await facts.apply([Self.period("6200000000000002", of: "6200000000000001", .production, daysAgo: 10, token: token)])
            #expect(try await harness.count("SELECT count(*) AS n FROM subscribers") == 0, "Apple's later word links nobody")

            // No row of any table names the user.
            let tables = try await harness.database.query(
                "SELECT quote_ident(table_name) AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'"
            ).map { try $0.decode("name", as: String.self) }
            #expect(tables.count > 20)
            for table in tables {
                let named = try await harness.count(
                    PostgresQuery(sql: "SELECT count(*) AS n FROM \(table) t WHERE strpos(t::text, '\(user)') > 0"))
                #expect(named == 0, "\(table) names the forgotten user")
            }
            let again = try await tokens.token(for: user, bundleID: nil)
            #expect(again != token, "a reused id gets a new token")
            try await facts.apply([Self.period("6200000000000003", of: "6200000000000001", .production, daysAgo: 1, token: token)])
            #expect(try await harness.count("SELECT count(*) AS n FROM subscribers") == 0, "the old token names nobody, not the new user")
        }
    }

    @Test(
        "consent answers only for a purchase's owner: under share, a user linked before the owner's token was known does not consent for her"
    )
    func consentFromTheOwnerOnly() async throws {
        try await UseCaseHarness.with { base in
            let harness = base.with(apps: try Self.apps(#"{"apps":[{"bundle_id":"\#(Self.bundleID)","link_policy":"share"}]}"#))
            let facts = FactApplier(database: harness.database, apps: harness.apps)
            let original = "6300000000000001"
            try await facts.apply([Self.period(original, of: original, .production, daysAgo: 40)], appUserID: "sharer")
            let token = try await AppAccountTokens(database: harness.database, apps: harness.apps).token(for: "buyer", bundleID: nil)
            try await facts.apply([Self.period("6300000000000002", of: original, .production, daysAgo: 10, token: token)])
            #expect(try await harness.count("SELECT count(*) AS n FROM subscribers WHERE original_transaction_id = \(original)") == 2)
            try await harness.database.execute(
                """
                INSERT INTO consumption_requests (notification_uuid, environment, bundle_id, transaction_id, original_transaction_id,
                    auto_renewable, requested_at, deadline)
                VALUES ('consent-test', 'Production', \(Self.bundleID), '6300000000000002', \(original), true, now(), now() + interval '12 hours')
                """)
            let store = ConsumptionStore(client: harness.database)
            let consents = ConsumptionConsents(database: harness.database)
            let consented: () async throws -> Bool = {
                try await harness.database.execute("UPDATE consumption_requests SET next_attempt_at = now() - interval '1 second'")
                let claimed = try await store.claimDue(limit: 1, lease: .seconds(60))
                return try #require(claimed.first).consented
            }
            _ = try await consents.set(appUserID: "sharer", consented: true, actor: "test")
            #expect(try await consented() == false, "the sharer does not answer for the buyer")
            _ = try await consents.set(appUserID: "buyer", consented: true, actor: "test")
            #expect(try await consented() == true)
        }
    }
}
