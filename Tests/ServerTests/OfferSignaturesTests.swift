import AppStoreSignature
import CatalogFiles
import Crypto
import Foundation
import HTTPClient
import Store
import Subscriptions
import TestSupport
import Testing

/// `POST /v1/eligibility` with `"sign": true` and `POST /v1/offers/sign` through the query
/// API: every signature verifies with the app's public key alone and says what subscriptiond
/// answered; requests that cannot be signed get the contract's errors.
@Suite("Offer signatures through the query API")
struct OfferSignaturesTests {
    /// An In-App Purchase key in a file, and the settings that give it to the one app.
    struct SigningKey {
        let key = P256.Signing.PrivateKey()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("offer-key-\(UUID().uuidString).p8")

        func settings() throws -> [String: String] {
            try Data(key.pemRepresentation.utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            return ["APPSTORE_ISSUER_ID": "issuer-uuid", "APPSTORE_KEY_ID": "OFFERKEY01", "APPSTORE_PRIVATE_KEY_FILE": file.path]
        }

        /// The claims of `jws` after its signature verified with the public key.
        func verifiedClaims(_ jws: String) throws -> [String: Any] {
            let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
            try #require(parts.count == 3)
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: try Self.base64URL(parts[2]))
            try #require(key.publicKey.isValidSignature(signature, for: Array("\(parts[0]).\(parts[1])".utf8)), "the JWS does not verify")
            return try #require(try JSONSerialization.jsonObject(with: try Self.base64URL(parts[1])) as? [String: Any])
        }

        static func base64URL(_ part: Substring) throws -> Data {
            var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while text.count % 4 != 0 { text += "=" }
            return try #require(Data(base64Encoded: text))
        }
    }

    @Test("eligibility answers come with Apple's eligibility JWS for each product that has an offer")
    func signedEligibility() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        var life = Lifecycle(originalTransactionID: "8000000000000300")
        life.purchase(from: daysAgo(12), days: 7, trial: true)
        life.purchase(from: daysAgo(5), days: 30)
        try verify.answerAlways(life.verifyAnswer)
        let signing = SigningKey()
        defer { try? FileManager.default.removeItem(at: signing.file) }
        try await RunningService.with(verifyServer: verify, settings: try signing.settings()) { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            #expect(try await service.post("/v1/receipts", ["app_user_id": "erin", "receipt_data": life.receiptToken]).status == 200)
            let products = ["com.example.pro.monthly", "com.example.news.weekly", "com.example.premium.monthly", "com.example.unknown"]
            let response = try await service.post(
                "/v1/eligibility", ["app_user_id": "erin", "product_ids": products, "sign": true, "transaction_id": "8000000000000300"])
            #expect(response.status == 200)
            let body = try jsonObject(response)
            #expect(
                body["eligibility"] as? [String: String] == [
                    "com.example.pro.monthly": "ineligible", "com.example.news.weekly": "eligible",
                    "com.example.premium.monthly": "no_intro_offer", "com.example.unknown": "unknown_product",
                ])
            let signatures = try #require(body["signatures"] as? [String: String])
            #expect(signatures.keys.sorted() == ["com.example.news.weekly", "com.example.pro.monthly"])
            for (productID, allowed) in [("com.example.pro.monthly", false), ("com.example.news.weekly", true)] {
                let claims = try signing.verifiedClaims(try #require(signatures[productID]))
                #expect(claims["aud"] as? String == "introductory-offer-eligibility")
                #expect(claims["productId"] as? String == productID)
                #expect(claims["allowIntroductoryOffer"] as? Bool == allowed)
                #expect(claims["transactionId"] as? String == "8000000000000300")
                #expect(claims["bid"] as? String == RunningService.bundleID)
                #expect(claims["iss"] as? String == "issuer-uuid")
            }

            // Without "sign" nothing is signed; "sign" without a transaction id is refused.
            let unsigned = try jsonObject(try await service.post("/v1/eligibility", ["app_user_id": "erin", "product_ids": products]))
            #expect(unsigned["signatures"] == nil)
            let missing = try await service.post("/v1/eligibility", ["app_user_id": "erin", "product_ids": products, "sign": true])
            #expect(missing.status == 400)
            #expect(
                try jsonObject(missing)["message"] as? String
                    == "sign needs transaction_id: a transaction of the customer this server verified, e.g. AppTransaction's appTransactionID"
            )
            let notBool = try await service.post(
                "/v1/eligibility", ["app_user_id": "erin", "product_ids": products, "sign": "yes", "transaction_id": "1"])
            #expect(notBool.status == 400)
        }
    }

    @Test(
        "unlimited free trials: a new account sending someone else's transaction id gets 422 unverified_transaction and no JWS, by app user or by receipt"
    )
    func unverifiedTransaction() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        var life = Lifecycle(originalTransactionID: "8000000000000500")
        life.purchase(from: daysAgo(40), days: 7, trial: true)
        life.purchase(from: daysAgo(33), days: 30)
        try verify.answerAlways(life.verifyAnswer)
        let signing = SigningKey()
        defer { try? FileManager.default.removeItem(at: signing.file) }
        try await RunningService.with(verifyServer: verify, settings: try signing.settings()) { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            #expect(try await service.post("/v1/receipts", ["app_user_id": "owner", "receipt_data": life.receiptToken]).status == 200)
            let products = ["com.example.pro.monthly"]
            // The customer who used her trial opens a new app account and sends her own transaction id.
            for transactionID in ["8000000000000500", "8000000000000501", "9999999999"] {
                let stolen = try await service.post(
                    "/v1/eligibility",
                    ["app_user_id": "new-account", "product_ids": products, "sign": true, "transaction_id": transactionID])
                #expect(stolen.status == 422, "\(transactionID)")
                let body = try jsonObject(stolen)
                #expect(body["error"] as? String == "unverified_transaction")
                #expect(body["signatures"] == nil && body["eligibility"] == nil)
            }
            // Her own account with her own transaction: the truth, signed.
            let own = try jsonObject(
                try await service.post(
                    "/v1/eligibility",
                    ["app_user_id": "owner", "product_ids": products, "sign": true, "transaction_id": "8000000000000501"]))
            #expect(own["eligibility"] as? [String: String] == ["com.example.pro.monthly": "ineligible"])
            let claims = try signing.verifiedClaims(try #require((own["signatures"] as? [String: String])?["com.example.pro.monthly"]))
            #expect(claims["allowIntroductoryOffer"] as? Bool == false)
            #expect(claims["transactionId"] as? String == "8000000000000501")
            // By receipt: only a transaction of the receipt Apple verified is signed for.
            let foreign = try await service.post(
                "/v1/eligibility", ["receipt_data": life.receiptToken, "product_ids": products, "sign": true, "transaction_id": "12345"])
            #expect(foreign.status == 422)
            #expect(try jsonObject(foreign)["error"] as? String == "unverified_transaction")
            let byReceipt = try jsonObject(
                try await service.post(
                    "/v1/eligibility",
                    ["receipt_data": life.receiptToken, "product_ids": products, "sign": true, "transaction_id": "8000000000000500"]))
            let receiptClaims = try signing.verifiedClaims(
                try #require((byReceipt["signatures"] as? [String: String])?["com.example.pro.monthly"]))
            #expect(receiptClaims["allowIntroductoryOffer"] as? Bool == false)
            // The same question with a promotional offer: 422 for the new account.
            let offer = try await service.post(
                "/v1/offers/sign",
                [
                    "app_user_id": "new-account", "product_id": "com.example.pro.yearly", "offer_id": "comeback50",
                    "transaction_id": "8000000000000500",
                ])
            #expect(offer.status == 422)
            #expect(try jsonObject(offer)["error"] as? String == "unverified_transaction")
        }
    }

    @Test("promotional offers: a v2 JWS, and a v1 signature over the user's app account token")
    func promotionalOffers() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        verify.answerOneActivePeriodPerReceipt()
        let signing = SigningKey()
        defer { try? FileManager.default.removeItem(at: signing.file) }
        try await RunningService.with(verifyServer: verify, settings: try signing.settings()) { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            let receipt = Data("2000000777".utf8).base64EncodedString()
            #expect(try await service.post("/v1/receipts", ["app_user_id": "frank", "receipt_data": receipt]).status == 200)
            let v2 = try await service.post(
                "/v1/offers/sign",
                ["app_user_id": "frank", "product_id": "com.example.pro.yearly", "offer_id": "comeback50", "transaction_id": "2000000777"])
            #expect(v2.status == 200)
            let v2Body = try jsonObject(v2)
            #expect(v2Body["format"] as? String == "v2")
            let claims = try signing.verifiedClaims(try #require(v2Body["jws"] as? String))
            #expect(claims["aud"] as? String == "promotional-offer")
            #expect(claims["offerIdentifier"] as? String == "comeback50")
            #expect(claims["productId"] as? String == "com.example.pro.yearly")
            #expect(claims["transactionId"] as? String == "2000000777")

            let v1 = try await service.post(
                "/v1/offers/sign",
                [
                    "app_user_id": "frank", "product_id": "com.example.pro.yearly", "offer_id": "comeback50", "format": "v1",
                    "transaction_id": "2000000777",
                ])
            #expect(v1.status == 200)
            let v1Body = try jsonObject(v1)
            let tokenBody = try jsonObject(try await service.get("/v1/subscribers/frank/app-account-token"))
            let token = try #require(tokenBody["app_account_token"] as? String)
            #expect(v1Body["app_account_token"] as? String == token)
            #expect(v1Body["key_id"] as? String == "OFFERKEY01")
            let nonceText = try #require(v1Body["nonce"] as? String)
            let nonce = try #require(UUID(uuidString: nonceText))
            let timestamp = try #require(v1Body["timestamp"] as? Int64)
            let signatureText = try #require(v1Body["signature"] as? String)
            let signature = try P256.Signing.ECDSASignature(derRepresentation: try #require(Data(base64Encoded: signatureText)))
            let message = StoreKitOfferSigner.promotionalOfferV1Message(
                bundleID: RunningService.bundleID, keyID: "OFFERKEY01", productID: "com.example.pro.yearly", offerID: "comeback50",
                appAccountToken: token, nonce: nonce, timestamp: timestamp)
            #expect(signing.key.publicKey.isValidSignature(signature, for: Array(message.utf8)))

            // Only auto-renewable subscriptions have promotional offers; formats are v1 and v2.
            let lifetime = try await service.post(
                "/v1/offers/sign",
                [
                    "app_user_id": "frank", "product_id": "com.example.pro.lifetime", "offer_id": "comeback50",
                    "transaction_id": "2000000777",
                ])
            #expect(lifetime.status == 400)
            #expect((try jsonObject(lifetime)["message"] as? String)?.contains("not an auto-renewable subscription") == true)
            let format = try await service.post(
                "/v1/offers/sign",
                [
                    "app_user_id": "frank", "product_id": "com.example.pro.yearly", "offer_id": "x", "format": "v3",
                    "transaction_id": "2000000777",
                ])
            #expect(format.status == 400)
            let missing = try await service.post("/v1/offers/sign", ["app_user_id": "frank", "product_id": "com.example.pro.yearly"])
            #expect(missing.status == 400)
            let noTransaction = try await service.post(
                "/v1/offers/sign", ["app_user_id": "frank", "product_id": "com.example.pro.yearly", "offer_id": "comeback50"])
            #expect(noTransaction.status == 400, "a signature names a verified transaction")
        }
    }

    @Test("a product's promotional_offers sign only the listed offers, each only for the customers of its audiences")
    func promotionalOfferRules() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        var lapsed = Lifecycle(originalTransactionID: "8000000000000400")
        lapsed.purchase(from: daysAgo(70), days: 30)
        lapsed.renewal["auto_renew_status"] = "0"
        try verify.answerAlways(lapsed.verifyAnswer)
        let signing = SigningKey()
        defer { try? FileManager.default.removeItem(at: signing.file) }
        try await RunningService.with(verifyServer: verify, settings: try signing.settings()) { service in
            let url = TestEnvironment.repositoryRoot().appendingPathComponent("Deploy/local/demo-catalog.json")
            let catalog = try CatalogParser.parse(json: Array(try Data(contentsOf: url))).get()
            var products = catalog.products
            let yearly = try #require(products.firstIndex { $0.productID == "com.example.pro.yearly" })
            products[yearly].promotionalOffers = [PromotionalOfferRule(offerID: "comeback50", audiences: [.lapsed])]
            try await ProductStore(client: service.database).replace(with: products, entitlements: catalog.entitlements)

            func sign(_ user: String, _ offer: String, transaction: String) async throws -> HTTPClient.HTTPResponse {
                try await service.post(
                    "/v1/offers/sign",
                    ["app_user_id": user, "product_id": "com.example.pro.yearly", "offer_id": offer, "transaction_id": transaction])
            }
            // A customer who never subscribed here has no verified transaction to sign for.
            let newcomer = try await sign("hana", "comeback50", transaction: "8000000000000400")
            #expect(newcomer.status == 422)
            #expect(try jsonObject(newcomer)["error"] as? String == "unverified_transaction")

            // Once the user's subscription in the group is known to have ended, the offer is theirs.
            #expect(try await service.post("/v1/receipts", ["app_user_id": "hana", "receipt_data": lapsed.receiptToken]).status == 200)
            let returning = try await sign("hana", "comeback50", transaction: "8000000000000400")
            #expect(returning.status == 200)
            let claims = try signing.verifiedClaims(try #require(try jsonObject(returning)["jws"] as? String))
            #expect(claims["offerIdentifier"] as? String == "comeback50")
            #expect(claims["transactionId"] as? String == "8000000000000400")
            // An offer the product does not list is not signed for anyone.
            let unlisted = try await sign("hana", "anything", transaction: "8000000000000400")
            #expect(unlisted.status == 404)
            #expect(
                try jsonObject(unlisted)["message"] as? String
                    == "the catalog lists no promotional offer anything for com.example.pro.yearly")

            // A customer active in the group is not lapsed.
            verify.answerOneActivePeriodPerReceipt()
            #expect(
                try await service.post(
                    "/v1/receipts", ["app_user_id": "ivan", "receipt_data": Data("8000000000000410".utf8).base64EncodedString()]
                )
                .status == 200)
            let active = try await sign("ivan", "comeback50", transaction: "8000000000000410")
            #expect(active.status == 403)
            #expect(try jsonObject(active)["error"] as? String == "not_eligible")
            #expect(try jsonObject(active)["message"] as? String == "ivan is not among the customers offer comeback50 is for (lapsed)")
        }
    }

    @Test("without an In-App Purchase key nothing is signed: 409 not_configured, naming the settings")
    func withoutKey() async throws {
        try await RunningService.with { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            for (path, body) in [
                (
                    "/v1/offers/sign",
                    ["app_user_id": "gina", "product_id": "com.example.pro.yearly", "offer_id": "comeback50", "transaction_id": "1"]
                        as [String: Any]
                ),
                (
                    "/v1/eligibility",
                    ["app_user_id": "gina", "product_ids": ["com.example.pro.monthly"], "sign": true, "transaction_id": "1"]
                ),
            ] {
                let response = try await service.post(path, body)
                #expect(response.status == 409, "\(path)")
                let error = try jsonObject(response)
                #expect(error["error"] as? String == "not_configured")
                #expect((error["message"] as? String)?.contains("APPSTORE_PRIVATE_KEY_FILE") == true)
            }
        }
    }
}
