import Access
import AppStore
import AppStoreSignature
import Composition
import Foundation
import Logging
import Postgres
import Settings
import SigningTestSupport
import Store
import StoredAnswers
import Subscriptions
import Testing
import UseCases

/// Entitlements end to end below HTTP: purchases of every type from v1 receipts and v2
/// signed transactions, grandfathering from receipts and AppTransactions, trials by the
/// server's clock, manual grants, and the stored `/entitlements` answer.
@Suite("Use case: entitlements from every source", .serialized)
struct EntitlementsUseCaseTests {
    static let app = UseCaseHarness.bundleID
    static let paidApp = "com.example.paidapp"

    /// `pro` from a subscription, a lifetime unlock and a 30-day pass, a 14-day trial of it, a
    /// consumable; `paid_pro` for the paid app's grandfathered customers.
    static func importCatalog(_ harness: UseCaseHarness) async throws {
        try await ProductStore(client: harness.database).replace(
            with: [
                Product(
                    productID: "com.example.pro.monthly", bundleID: app, type: .autoRenewable, subscriptionGroupID: "20500000",
                    period: ISO8601Duration("P1M")),
                Product(productID: "com.example.pro.lifetime", bundleID: app, type: .nonConsumable),
                Product(productID: "com.example.pass.30days", bundleID: app, type: .nonRenewing, period: ISO8601Duration("P30D")),
                Product(
                    productID: "com.example.pro.trial", bundleID: app, type: .nonConsumable, trialOf: "pro",
                    trialPeriod: ISO8601Duration("P14D")),
                Product(productID: "com.example.coins.100", bundleID: app, type: .consumable),
                Product(
                    productID: "com.example.paid.monthly", bundleID: paidApp, type: .autoRenewable, subscriptionGroupID: "30500000",
                    period: ISO8601Duration("P1M")),
            ],
            entitlements: [
                Entitlement(id: "pro", productIDs: ["com.example.pro.monthly", "com.example.pro.lifetime", "com.example.pass.30days"]),
                Entitlement(id: "paid_pro", productIDs: ["com.example.paid.monthly"]),
            ])
    }

    /// The demo app and a paid app that moved to subscriptions at 2.0.
    static func appsWithGrandfathering(_ harness: UseCaseHarness) -> AppRegistry {
        AppRegistry([
            harness.apps.app(bundleID: app)!,
            AppCredentials(
                bundleID: paidApp, sharedSecret: Secret("paid-secret"), appAppleID: "1234567890",
                entitlementPolicy: EntitlementPolicy(grandfather: .init(beforeVersion: DottedVersion("2.0")!, entitlement: "paid_pro"))),
        ])
    }

    /// A verifyReceipt answer whose `in_app` holds one-time purchases.
    static func receiptAnswer(inApp: [[String: Any]], originalVersion: String = "1.0", bundleID: String = app) -> [String: Any] {
        [
            "status": 0, "environment": "Production",
            "receipt": ["bundle_id": bundleID, "original_application_version": originalVersion, "in_app": inApp],
        ]
    }

    static func inApp(_ productID: String, id: String, daysAgo days: Double, refundedDaysAgo: Double? = nil) -> [String: Any] {
        var entry: [String: Any] = [
            "transaction_id": id, "original_transaction_id": id, "product_id": productID, "quantity": "1",
            "purchase_date_ms": NotificationBodies.ms(daysAgo(days)),
        ]
        if let refundedDaysAgo {
            entry["cancellation_date_ms"] = NotificationBodies.ms(daysAgo(refundedDaysAgo))
            entry["cancellation_reason"] = "0"
        }
        return entry
    }

    func recordReceipt(
        _ harness: UseCaseHarness, answer: [String: Any], user: String, bundleID: String? = nil
    ) async throws -> SubscriberJSON {
        try harness.verify.answerAlways(answer)
        let submission = try ReceiptSubmission(receiptData: UseCaseHarness.receipt(user), bundleID: bundleID, apps: harness.apps)
        guard
            case .applied(let body) = try await harness.purchases().record(
                receipt: submission, appUserID: user, visibleTo: .all, logger: harness.logger)
        else {
            throw CocoaError(.featureUnsupported)
        }
        return try SubscriberJSON(body)
    }

    func entitlements(_ harness: UseCaseHarness, _ user: String, at now: Date = Date()) async throws -> (SubscriberJSON, ReadAnswers.Origin)
    {
        let answer = try #require(try await harness.answers.entitlementsBody(appUserID: user, now: now))
        return (try SubscriberJSON(answer.body), answer.origin)
    }

    @Test("v1: a lifetime buyer without a subscription is entitled to pro for good; refunded, not")
    func lifetimeFromAReceipt() async throws {
        try await UseCaseHarness.with { harness in
            try await Self.importCatalog(harness)
            let bought = try await recordReceipt(
                harness, answer: Self.receiptAnswer(inApp: [Self.inApp("com.example.pro.lifetime", id: "5100000000000001", daysAgo: 40)]),
                user: "lifetime-v1")
            #expect(bought.summary("pro") == "active:non_consumable")
            #expect(bought.entitlement("pro")?["expires_at"] is NSNull)
            #expect(bought.entitlement("pro")?["product_id"] as? String == "com.example.pro.lifetime")
            #expect(bought.purchases.map { $0["type"] as? String } == ["non_consumable"])
            #expect(bought.subscriptions.isEmpty)

            let refunded = try await recordReceipt(
                harness,
                answer: Self.receiptAnswer(inApp: [
                    Self.inApp("com.example.pro.lifetime", id: "5100000000000001", daysAgo: 40, refundedDaysAgo: 1)
                ]),
                user: "lifetime-v1")
            #expect(refunded.summary("pro") == "inactive:-")
            #expect(refunded.purchases.first?["revoked_at"] is String)
            #expect(try await entitlements(harness, "lifetime-v1").0.summary("pro") == "inactive:-")
        }
    }

    @Test("v2: a signed Non-Consumable transaction entitles; a prorated refund is shown and revokes")
    func lifetimeFromASignedTransaction() async throws {
        try await UseCaseHarness.with { harness in
            try await Self.importCatalog(harness)
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            func transaction(refunded: Bool, signedAt: Int64) throws -> String {
                var object: [String: Any] = [
                    "transactionId": "5200000000000001", "originalTransactionId": "5200000000000001", "bundleId": Self.app,
                    "productId": "com.example.pro.lifetime", "environment": "Sandbox", "purchaseDate": now - 86_400_000,
                    "signedDate": signedAt, "type": "Non-Consumable", "quantity": 1, "price": 29_990, "currency": "EUR",
                    "storefront": "DEU",
                ]
                if refunded {
                    object["revocationDate"] = signedAt - 1_000
                    object["revocationReason"] = 0
                    object["revocationType"] = "REFUND_PRORATED"
                    object["revocationPercentage"] = 50_000
                }
                return try TestJWS.sign(
                    payload: String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self), by: harness.pki)
            }
            let purchases = harness.purchases()
            guard
                case .applied(let body) = try await purchases.record(
                    signedTransaction: try transaction(refunded: false, signedAt: now - 10_000), appUserID: "lifetime-v2",
                    visibleTo: .all, logger: harness.logger)
            else { throw CocoaError(.featureUnsupported) }
            let bought = try SubscriberJSON(body)
            #expect(bought.summary("pro") == "active:non_consumable")
            #expect(bought.entitlement("pro")?["environment"] as? String == "Sandbox")
            let purchase = try #require(bought.purchases.first)
            #expect(
                purchase["price"] as? String == "29.99" && purchase["currency"] as? String == "EUR"
                    && purchase["storefront"] as? String == "DEU")

            guard
                case .applied(let after) = try await purchases.record(
                    signedTransaction: try transaction(refunded: true, signedAt: now), appUserID: "lifetime-v2", visibleTo: .all,
                    logger: harness.logger)
            else { throw CocoaError(.featureUnsupported) }
            let refunded = try SubscriberJSON(after)
            #expect(refunded.summary("pro") == "inactive:-")
            #expect(refunded.purchases.first?["revocation_type"] as? String == "REFUND_PRORATED")
        }
    }

    @Test("a Sandbox purchase of an app whose sandbox_entitlement is ignore is shown in purchases and grants nothing")
    func sandboxIgnored() async throws {
        try await UseCaseHarness.with { base in
            let harness = base.with(
                apps: AppRegistry([
                    AppCredentials(
                        bundleID: Self.app, sharedSecret: Secret(RunningService.sharedSecret),
                        entitlementPolicy: EntitlementPolicy(sandboxEntitlement: .ignore))
                ]))
            try await Self.importCatalog(harness)
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let object: [String: Any] = [
                "transactionId": "5200000000000009", "originalTransactionId": "5200000000000009", "bundleId": Self.app,
                "productId": "com.example.pro.lifetime", "environment": "Sandbox", "purchaseDate": now - 86_400_000,
                "signedDate": now, "type": "Non-Consumable", "quantity": 1,
            ]
            let jws = try TestJWS.sign(
                payload: String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self), by: harness.pki)
            guard
                case .applied(let body) = try await harness.purchases().record(
                    signedTransaction: jws, appUserID: "tester", visibleTo: .all, logger: harness.logger)
            else { throw CocoaError(.featureUnsupported) }
            let tester = try SubscriberJSON(body)
            #expect(tester.summary("pro") == "inactive:-", "a TestFlight purchase costs nothing: no production access")
            #expect(tester.purchases.map { $0["environment"] as? String } == ["Sandbox"])
            #expect(try await entitlements(harness, "tester").0.summary("pro") == "inactive:-")
        }
    }

    @Test("two 30-day passes bought 10 days apart are active 60 days from the first; a consumable is a purchase that grants nothing")
    func passesStackAndConsumables() async throws {
        try await UseCaseHarness.with { harness in
            try await Self.importCatalog(harness)
            let first = daysAgo(25)
            let body = try await recordReceipt(
                harness,
                answer: Self.receiptAnswer(inApp: [
                    Self.inApp("com.example.pass.30days", id: "5300000000000001", daysAgo: 25),
                    Self.inApp("com.example.pass.30days", id: "5300000000000002", daysAgo: 15),
                    Self.inApp("com.example.coins.100", id: "5300000000000003", daysAgo: 2),
                ]),
                user: "passes")
            #expect(body.summary("pro") == "active:non_renewing")
            let expires = try #require(body.entitlement("pro")?["expires_at"] as? String)
            let expected = first.addingTimeInterval(60 * 86_400)
            let actual = try #require(ISO8601DateFormatter().date(from: expires))
            #expect(abs(actual.timeIntervalSince(expected)) < 1)
            #expect(body.purchases.map { $0["type"] as? String } == ["non_renewing", "non_renewing", "consumable"])
            // Day 59 and day 61 after the first pass, by the server's clock.
            #expect(
                try await entitlements(harness, "passes", at: first.addingTimeInterval(59 * 86_400)).0.summary("pro")
                    == "active:non_renewing")
            #expect(try await entitlements(harness, "passes", at: first.addingTimeInterval(61 * 86_400)).0.summary("pro") == "inactive:-")
        }
    }

    @Test("a trial product bought 13 days ago is active, 15 days ago is not, by the server's clock")
    func trialByTheServersClock() async throws {
        try await UseCaseHarness.with { harness in
            try await Self.importCatalog(harness)
            for (user, days, expected) in [("trial-13", 13.0, "active:trial"), ("trial-15", 15.0, "inactive:-")] {
                // The receipt was made (on the device) today; only Apple's purchase date counts.
                var answer = Self.receiptAnswer(inApp: [
                    Self.inApp("com.example.pro.trial", id: "54000000000000\(Int(days))", daysAgo: days)
                ])
                var receipt = answer["receipt"] as? [String: Any] ?? [:]
                receipt["receipt_creation_date_ms"] = NotificationBodies.ms(Date())
                answer["receipt"] = receipt
                #expect(try await recordReceipt(harness, answer: answer, user: user).summary("pro") == expected)
            }
            // The stored answer of the 13-day trial ends with the trial: a day later it is computed again, inactive.
            let (_, origin) = try await entitlements(harness, "trial-13")
            #expect(origin == .stored)
            let (later, laterOrigin) = try await entitlements(harness, "trial-13", at: Date().addingTimeInterval(1.5 * 86_400))
            #expect(later.summary("pro") == "inactive:-" && laterOrigin == .computed)
        }
    }

    @Test(
        "grandfathering: 1.9 before 2.0 is entitled for good, 2.0 and 10.1 are not; from receipts and AppTransactions; a forged AppTransaction changes nothing"
    )
    func grandfathering() async throws {
        try await UseCaseHarness.with { base in
            let harness = base.with(apps: Self.appsWithGrandfathering(base))
            try await Self.importCatalog(harness)
            for (version, expected) in [("1.9", "active:grandfathered"), ("2.0", "inactive:-"), ("10.1", "inactive:-")] {
                // v1: a receipt holding no purchase still records the version.
                let user = "receipt-\(version)"
                let body = try await recordReceipt(
                    harness, answer: Self.receiptAnswer(inApp: [], originalVersion: version, bundleID: Self.paidApp), user: user,
                    bundleID: Self.paidApp)
                #expect(body.summary("paid_pro") == expected, "receipt \(version)")
                #expect(try await entitlements(harness, user).0.summary("paid_pro") == expected)
            }
            let recorder = AppTransactionRecorder(
                database: harness.database, answers: harness.answers, signatures: harness.signatures, apps: harness.apps)
            func appTransaction(_ version: String, by pki: TestPKI) throws -> String {
                let object: [String: Any] = [
                    "receiptType": "Production", "bundleId": Self.paidApp, "appAppleId": 1_234_567_890, "applicationVersion": "3.1",
                    "originalApplicationVersion": version, "originalPurchaseDate": 1_500_000_000_000,
                    "appTransactionId": "7050000000000\(version.count)",
                    "signedDate": Int64(Date().timeIntervalSince1970 * 1000),
                ]
                return try TestJWS.sign(
                    payload: String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self), by: pki)
            }
            for (version, expected) in [("1.9", "active:grandfathered"), ("2.0", "inactive:-"), ("10.1", "inactive:-")] {
                let body = try await recorder.record(
                    signedAppTransaction: try appTransaction(version, by: harness.pki), appUserID: "v2-\(version)", logger: harness.logger)
                #expect(try SubscriberJSON(body).summary("paid_pro") == expected, "AppTransaction \(version)")
            }
            let forged = try appTransaction("1.0", by: try TestPKI())
            await #expect(throws: UseCaseError.signatureRejected("the AppTransaction does not verify")) {
                _ = try await recorder.record(signedAppTransaction: forged, appUserID: "forger", visibleTo: .all, logger: harness.logger)
            }
            await #expect(throws: UseCaseError.self) {
                _ = try await recorder.record(
                    signedAppTransaction: "not.a.jws", appUserID: "forger", visibleTo: .all, logger: harness.logger)
            }
            #expect(try await harness.count("SELECT count(*) AS n FROM original_application_versions WHERE app_user_id = 'forger'") == 0)
            #expect(try await harness.answers.entitlementsBody(appUserID: "forger") == nil)
        }
    }

    @Test(
        "a grant until tomorrow shows source grant; after its end the stored answer is no longer served; unknown entitlements and grants are refused; every change is audited"
    )
    func manualGrants() async throws {
        try await UseCaseHarness.with { harness in
            try await Self.importCatalog(harness)
            let grants = ManualGrants(database: harness.database)
            let tomorrow = Date().addingTimeInterval(86_400)
            let grant = try await grants.add(
                appUserID: "comped", entitlement: "pro", expiresAt: tomorrow, reason: "support ticket 1", actor: "test")
            let (first, firstOrigin) = try await entitlements(harness, "comped")
            #expect(first.summary("pro") == "active:grant" && firstOrigin == .computed)
            let (_, secondOrigin) = try await entitlements(harness, "comped")
            #expect(secondOrigin == .stored)
            let (ended, endedOrigin) = try await entitlements(harness, "comped", at: tomorrow.addingTimeInterval(1))
            #expect(ended.summary("pro") == "inactive:-" && endedOrigin == .computed)

            await #expect(throws: UseCaseError.self) {
                _ = try await grants.add(appUserID: "comped", entitlement: "ghost", expiresAt: nil, reason: "x", actor: "test")
            }
            await #expect(throws: UseCaseError.self) {
                _ = try await grants.add(
                    appUserID: "comped", entitlement: "pro", expiresAt: Date().addingTimeInterval(-1), reason: "x", actor: "test")
            }
            let forGood = try await grants.add(
                appUserID: "comped", entitlement: "pro", expiresAt: nil, reason: "lifetime comp", actor: "test")
            #expect(try await entitlements(harness, "comped").0.entitlement("pro")?["expires_at"] is NSNull)
            _ = try await grants.revoke(id: forGood.id, appUserID: "comped", reason: "ticket closed", actor: "test")
            #expect(
                try await entitlements(harness, "comped").0.entitlement("pro")?["expires_at"] as? String != nil, "the dated grant is left")
            _ = try await grants.revoke(id: grant.id, appUserID: nil, reason: nil, actor: "test")
            #expect(try await entitlements(harness, "comped").0.summary("pro") == "inactive:-")
            await #expect(throws: UseCaseError.notFound("no grant 999999 for app_user_id comped")) {
                _ = try await grants.revoke(id: 999_999, appUserID: "comped", reason: nil, actor: "test")
            }
            #expect(try await grants.list(appUserID: "comped").count == 2)
            #expect(try await harness.count("SELECT count(*) AS n FROM audit_log WHERE app_user_id = 'comped'") == 4)
        }
    }
}

/// Two notifications of a purchase not stored yet, applied at once, merge: the refund is
/// never lost to the purchase's upsert (one-time purchases are locked like subscriptions).
@Suite("Use case: concurrent facts of one new purchase")
struct ConcurrentPurchaseFactsTests {
    @Test("a purchase and its refund applied concurrently always end refunded")
    func purchaseAndRefundRace() async throws {
        try await UseCaseHarness.with { harness in
            let applier = FactApplier(database: harness.database, apps: harness.apps)
            let bought = Date().addingTimeInterval(-10 * 86_400)
            for round in 0..<12 {
                let id = "56000000000000\(10 + round)"
                func batch(refunded: Bool) -> FactBatch {
                    let fact = TransactionFact(
                        transactionID: id, originalTransactionID: id, productID: "com.example.pro.lifetime",
                        bundleID: UseCaseHarness.bundleID,
                        environment: .production, purchaseDate: bought,
                        cancellationDate: refunded ? bought.addingTimeInterval(86_400) : nil,
                        cancellationReason: refunded ? "0" : nil, source: .v2,
                        statedAt: refunded ? bought.addingTimeInterval(86_400) : bought, productType: .nonConsumable)
                    return FactBatch(
                        facts: ReceiptFacts(
                            environment: .production, bundleID: UseCaseHarness.bundleID, transactions: [fact], renewals: [],
                            latestReceipt: nil),
                        observedAt: Date())
                }
                async let purchase: Void = { _ = try await applier.apply([batch(refunded: false)]) }()
                async let refund: Void = { _ = try await applier.apply([batch(refunded: true)]) }()
                _ = try await (purchase, refund)
                let revoked = try await harness.count(
                    "SELECT count(*) AS n FROM transactions WHERE transaction_id = \(id) AND cancellation_date IS NOT NULL")
                #expect(revoked == 1, "round \(round): the refund was lost")
            }
        }
    }
}
