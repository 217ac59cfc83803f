import AppStore
import Foundation
import Postgres
import Settings
import Store
import Subscriptions
import Testing

@testable import UseCases

/// Which events are written: an app's `webhook_event_types`, and nothing for an app without
/// a webhook URL (its events would only pile up undeliverable).
@Suite("Use case: webhook event selection per app")
struct WebhookEventSelectionTests {
    static let selective = "com.example.selective"
    static let silent = "com.example.silent"

    static func config() throws -> AppRegistry {
        let file = try TemporaryFile.write(
            """
            {"apps": [
              {"bundle_id": "\(selective)", "app_apple_id": 1, "webhook_url": "http://127.0.0.1:9/hooks",
               "webhook_secret": "selective-webhook-secret-0123456789", "webhook_event_types": ["refunded", "user_linked"]},
              {"bundle_id": "\(silent)", "app_apple_id": 2}
            ]}
            """, name: "selection.json")
        defer { try? FileManager.default.removeItem(atPath: file) }
        return try ServiceConfiguration.load(environment: ["SUBSCRIPTIOND_CONFIG": file]).apps
    }

    /// A purchase of `bundleID`, refunded when `refunded`.
    static func facts(_ bundleID: String, id: String, refunded: Bool) -> FactBatch {
        let now = Date()
        let fact = TransactionFact(
            transactionID: id, originalTransactionID: id, productID: "com.example.pro.monthly", bundleID: bundleID,
            environment: .production,
            purchaseDate: now.addingTimeInterval(-86_400), expiresDate: now.addingTimeInterval(29 * 86_400),
            cancellationDate: refunded ? now.addingTimeInterval(-60) : nil, cancellationReason: refunded ? "0" : nil, source: .v2,
            statedAt: now.addingTimeInterval(refunded ? 0 : -1), productType: .autoRenewable)
        return FactBatch(
            facts: ReceiptFacts(environment: .production, bundleID: bundleID, transactions: [fact], renewals: [], latestReceipt: nil),
            observedAt: now)
    }

    @Test("an app gets only the types it names; an app without a webhook URL gets no event written")
    func selection() async throws {
        try await UseCaseHarness.with { base in
            let harness = base.with(apps: try Self.config())
            let applier = FactApplier(database: harness.database, apps: harness.apps)
            for (bundle, id) in [(Self.selective, "8200000000000001"), (Self.silent, "8200000000000002")] {
                try await applier.apply([Self.facts(bundle, id: id, refunded: false)], appUserID: "user-\(id)")
                try await applier.apply([Self.facts(bundle, id: id, refunded: true)])
            }
            let written = try await harness.database.query("SELECT bundle_id, type FROM webhook_events ORDER BY id").map {
                "\(try $0.decode("bundle_id", as: String.self)) \(try $0.decode("type", as: String.self))"
            }
            // subscription_created is not among the selective app's types; the silent app has no URL.
            #expect(written == ["\(Self.selective) refunded"])
        }
    }

    @Test("a type that does not exist stops startup naming the app and the type")
    func unknownType() throws {
        let file = try TemporaryFile.write(
            #"{"apps":[{"bundle_id":"a.b","app_apple_id":1,"webhook_event_types":["expiry"]}]}"#, name: "bad.json")
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(throws: ConfigurationError.self) { try ServiceConfiguration.load(environment: ["SUBSCRIPTIOND_CONFIG": file]) }
        do {
            _ = try ServiceConfiguration.load(environment: ["SUBSCRIPTIOND_CONFIG": file])
        } catch {
            #expect("\(error)".contains("a.b") && "\(error)".contains("'expiry'"), "\(error)")
        }
    }
}
