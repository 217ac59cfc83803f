import Access
import AppStore
import Crypto
import Foundation
import Settings
import Store
import Subscriptions
import Synchronization
import Testing
import UseCases

/// ``OfferSignatures``' decisions without a database: a signature only for a transaction the
/// server verified for the user, judged for that Apple account, in environments that grant.
@Suite("Use cases without a database: offer signatures")
struct OfferDecisionTests {
    static let bundleID = "com.example.app"
    static let monthly = Product(
        productID: "pro.monthly", bundleID: bundleID, type: .autoRenewable, subscriptionGroupID: "20500000",
        period: ISO8601Duration("P1M"),
        introOffer: IntroOffer(paymentMode: .freeTrial, period: ISO8601Duration("P1W")!, periods: 1, price: 0))

    /// The one app, with an In-App Purchase key, and `sandbox` as its sandbox_entitlement.
    static func apps(sandbox: String = "grant") throws -> AppRegistry {
        let directory = FileManager.default.temporaryDirectory
        let key = directory.appendingPathComponent("offers-\(UUID().uuidString).p8")
        let config = directory.appendingPathComponent("offers-\(UUID().uuidString).json")
        defer {
            try? FileManager.default.removeItem(at: key)
            try? FileManager.default.removeItem(at: config)
        }
        try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: key)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)
        try Data(#"{"apps":[{"bundle_id":"\#(bundleID)","sandbox_entitlement":"\#(sandbox)"}]}"#.utf8).write(to: config)
        return try ServiceConfiguration.load(environment: [
            "SUBSCRIPTIOND_CONFIG": config.path, "APPSTORE_BUNDLE_ID": bundleID, "APPSTORE_ISSUER_ID": "issuer", "APPSTORE_KEY_ID": "KEY1",
            "APPSTORE_PRIVATE_KEY_FILE": key.path,
        ]).apps
    }

    /// An account whose one subscription started with a free trial, in `environment`.
    static func trialAccount(_ environment: AppStoreEnvironment) -> AppleAccountRead {
        let trial = TransactionFact(
            transactionID: "100", originalTransactionID: "100", productID: "pro.monthly", bundleID: bundleID, environment: environment,
            subscriptionGroupID: "20500000", purchaseDate: Date(timeIntervalSinceNow: -40 * 86_400),
            expiresDate: Date(timeIntervalSinceNow: -33 * 86_400), isTrialPeriod: true)
        return AppleAccountRead(subscriptions: [], history: CustomerHistory(transactions: [trial]))
    }

    static func offers(apps: AppRegistry, accounts: [String: AppleAccountRead], audit: RecordedAudit = RecordedAudit()) -> OfferSignatures {
        OfferSignatures(
            apps: apps, catalog: FixedCatalog(products: [monthly]), accounts: KnownAccounts(accounts: accounts),
            appAccountTokens: AppAccountTokens(store: InMemoryTokens(), apps: apps), eligibilityPolicy: .apple,
            audit: audit)
    }

    @Test("a transaction not verified for the user is refused: unverified_transaction, nothing signed")
    func unverified() async throws {
        let offers = Self.offers(apps: try Self.apps(), accounts: ["owner/100": Self.trialAccount(.production)])
        do {
            let signed = try await offers.eligibility(
                appUserID: "new-account", transactionID: "100", productIDs: ["pro.monthly"], bundleID: nil)
            Issue.record("signed for a transaction never verified for the user: \(signed.signatures.keys.sorted())")
        } catch UseCaseError.unverifiedTransaction {
            // Refused, and nothing was signed.
        }
    }

    @Test("the owner's account used its trial: ineligible, and the JWS says so; a Sandbox trial counts only where Sandbox grants")
    func judgedForTheAccount() async throws {
        let production = try await Self.offers(apps: try Self.apps(), accounts: ["owner/100": Self.trialAccount(.production)])
            .eligibility(appUserID: "owner", transactionID: "100", productIDs: ["pro.monthly"], bundleID: nil)
        #expect(production.answers == ["pro.monthly": .ineligible])
        #expect(production.signatures.keys.sorted() == ["pro.monthly"])
        let sandboxIgnored = try await Self.offers(
            apps: try Self.apps(sandbox: "ignore"), accounts: ["owner/100": Self.trialAccount(.sandbox)]
        )
        .eligibility(appUserID: "owner", transactionID: "100", productIDs: ["pro.monthly"], bundleID: nil)
        #expect(sandboxIgnored.answers == ["pro.monthly": .eligible])
    }

    @Test("a promotional offer signed is audited under the principal that asked; one refused, or asked without the offers scope, is not")
    func promotionalOfferAudited() async throws {
        let audit = RecordedAudit()
        let offers = Self.offers(apps: try Self.apps(), accounts: ["owner/100": Self.trialAccount(.production)], audit: audit)
        let service = Principal(name: "offer-service", kind: .apiKey, scopes: [.offers], apps: .all)
        _ = try await offers.promotionalOffer(
            appUserID: "owner", productID: "pro.monthly", offerID: "comeback50", format: .v2, transactionID: "100", bundleID: nil,
            by: service)
        #expect(
            audit.rows.withLock { $0 } == [
                RecordedAudit.Row(
                    action: "offer_signed", actor: "key:offer-service", appUserID: "owner",
                    detail: [
                        "bundle_id": Self.bundleID, "product_id": "pro.monthly", "offer_id": "comeback50", "transaction_id": "100",
                        "format": "v2",
                    ])
            ])
        await #expect(throws: UseCaseError.self) {
            _ = try await offers.promotionalOffer(
                appUserID: "stranger", productID: "pro.monthly", offerID: "comeback50", format: .v2, transactionID: "100", bundleID: nil,
                by: service)
        }
        let reader = Principal(name: "paywall", kind: .apiKey, scopes: [.read], apps: .all)
        await #expect(throws: UseCaseError.forbidden("the key paywall lacks the offers scope")) {
            _ = try await offers.promotionalOffer(
                appUserID: "owner", productID: "pro.monthly", offerID: "comeback50", format: .v2, transactionID: "100", bundleID: nil,
                by: reader)
        }
        #expect(audit.rows.withLock { $0.count } == 1)
    }
}
