import AppStore
import Composition
import Foundation
import Postgres
import Settings
import Store
import Subscriptions
import Testing

@testable import UseCases

/// The app account token: a stable UUIDv5 of (app, user) that links purchases carrying it.
@Suite("Use case: app account tokens")
struct AppAccountTokenTests {
    @Test("the token is RFC 9562's UUIDv5 of the app and the user (the same as Python's uuid.uuid5)")
    func uuidVersion5() {
        // uuid.uuid5(uuid.UUID("5c3e0b8e-617a-4f0d-9a52-6b1f2e84d137"), "com.example.app\0user-42")
        let namespace: [UInt8] = [0x5c, 0x3e, 0x0b, 0x8e, 0x61, 0x7a, 0x4f, 0x0d, 0x9a, 0x52, 0x6b, 0x1f, 0x2e, 0x84, 0xd1, 0x37]
        #expect(
            AppAccountTokens.uuid(namespace: namespace, bundleID: "com.example.app", appUserID: "user-42")
                == "29fde652-80d9-5fea-aa6a-0dc57e659c30")
        #expect(
            AppAccountTokens.uuid(namespace: namespace, bundleID: "com.example.app", appUserID: "user-43")
                == "7fa3f289-b308-5136-a8c6-ba2584353da8")
    }

    @Test(
        "the namespace is the installation's own: a random (version 4) UUID the migration made; tokens are UUIDv5s with a random part, stored, so nobody can compute one"
    )
    func namespacePerInstallation() async throws {
        try await UseCaseHarness.with { harness in
            let namespace = try await AppAccountTokenStore(client: harness.database).namespace()
            #expect(namespace.count == 16 && namespace[6] >> 4 == 4 && namespace[8] >> 6 == 2, "\(namespace)")
            let service = AppAccountTokens(database: harness.database, apps: harness.apps)
            let token = try await service.token(for: "user-42", bundleID: nil)
            #expect(token.count == 36 && Array(token)[14] == "5", "a version 5 UUID: \(token)")
            #expect(token != AppAccountTokens.uuid(namespace: namespace, bundleID: UseCaseHarness.bundleID, appUserID: "user-42"))
            #expect(try await service.token(for: "user-42", bundleID: nil) == token, "stored: the same on every ask")
            let stored = try await harness.database.query("SELECT token FROM app_account_tokens WHERE app_user_id = 'user-42'")
            #expect(try stored.map { try $0.decode("token", as: String.self) } == [token])
        }
    }

    @Test("a token stored before the random part (0021) keeps naming its user")
    func tokenStoredEarlier() async throws {
        try await UseCaseHarness.with { harness in
            let namespace = try await AppAccountTokenStore(client: harness.database).namespace()
            let earlier = AppAccountTokens.uuid(namespace: namespace, bundleID: UseCaseHarness.bundleID, appUserID: "user-7")
            try await harness.database.execute(
                "INSERT INTO app_account_tokens (token, bundle_id, app_user_id) VALUES (\(earlier), \(UseCaseHarness.bundleID), 'user-7')")
            #expect(
                try await AppAccountTokens(database: harness.database, apps: harness.apps).token(for: "user-7", bundleID: nil) == earlier)
        }
    }

    @Test(
        "a purchase carrying a handed-out token links the user it was made for, with no call; an unknown token still names the user whose id it is"
    )
    func tokenLinksItsUser() async throws {
        try await UseCaseHarness.with { harness in
            let tokens = AppAccountTokens(database: harness.database, apps: harness.apps)
            let token = try await tokens.token(for: "user-42", bundleID: nil)
            #expect(try await tokens.token(for: "user-42", bundleID: nil) == token, "stable")
            await #expect(throws: UseCaseError.self) { _ = try await tokens.token(for: "user-42", bundleID: "com.other.app") }

            // What the worker applies for a v2 notification: no app user id, only the signed facts.
            func facts(_ id: String, token: String) -> FactBatch {
                let fact = TransactionFact(
                    transactionID: id, originalTransactionID: id, productID: "com.example.pro.lifetime", bundleID: UseCaseHarness.bundleID,
                    environment: .production, purchaseDate: Date(), source: .v2, statedAt: Date(), appAccountToken: token,
                    productType: .nonConsumable)
                return FactBatch(
                    facts: ReceiptFacts(
                        environment: .production, bundleID: UseCaseHarness.bundleID, transactions: [fact], renewals: [], latestReceipt: nil),
                    observedAt: Date())
            }
            let own = "0b5e3c9e-8a51-4c1a-9f57-0d5a3e9f2c11"
            try await FactApplier(database: harness.database, apps: harness.apps).apply([
                facts("5800000000000001", token: token), facts("5800000000000002", token: own),
            ])
            let links = try await harness.database.query("SELECT app_user_id, original_transaction_id FROM subscribers ORDER BY 2").map {
                "\(try $0.decode("app_user_id", as: String.self)) \(try $0.decode("original_transaction_id", as: String.self))"
            }
            #expect(links == ["user-42 5800000000000001", "\(own) 5800000000000002"])
        }
    }
}
