import AppStore
import Foundation
import Settings
import Subscriptions
import Synchronization
import Testing
import UseCases

/// ``FactApplier``'s link decisions without a database: who owns a purchase after each
/// claim, and a refused claim that writes nothing.
@Suite("Use cases without a database: applying facts and linking")
struct FactApplierTests {
    static let bundleID = "com.example.app"

    static func apps(policy: String) throws -> AppRegistry {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("links-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: config) }
        try Data(#"{"apps":[{"bundle_id":"\#(bundleID)","link_policy":"\#(policy)"}]}"#.utf8).write(to: config)
        return try ServiceConfiguration.load(environment: ["SUBSCRIPTIOND_CONFIG": config.path]).apps
    }

    static func purchase(token: String? = nil) -> FactBatch {
        let fact = TransactionFact(
            transactionID: "300", originalTransactionID: "300", productID: "pro.lifetime", bundleID: bundleID, environment: .production,
            purchaseDate: Date(timeIntervalSinceNow: -3_600), source: .v2, statedAt: Date(), appAccountToken: token,
            productType: .nonConsumable)
        return FactBatch(
            facts: ReceiptFacts(environment: .production, bundleID: bundleID, transactions: [fact], renewals: [], latestReceipt: nil),
            observedAt: Date())
    }

    @Test("transfer moves the purchase to whoever proves it; refuse keeps the first owner and the refused claim writes nothing")
    func policies() async throws {
        let transfer = InMemoryFactDatabase()
        let moving = FactApplier(database: transfer, apps: try Self.apps(policy: "transfer"))
        try await moving.apply([Self.purchase()], appUserID: "a")
        try await moving.apply([Self.purchase()], appUserID: "b")
        #expect(transfer.state.withLock { $0.owners["300"] } == ["b"])

        let refuse = InMemoryFactDatabase()
        let keeping = FactApplier(database: refuse, apps: try Self.apps(policy: "refuse"))
        try await keeping.apply([Self.purchase()], appUserID: "a")
        await #expect(throws: UseCaseError.ownedByOtherUser("the purchase belongs to another user, and this app's link_policy is refuse")) {
            try await keeping.apply([Self.purchase()], appUserID: "b")
        }
        #expect(refuse.state.withLock { ($0.owners["300"], $0.plansWritten) } == (["a"], 1), "the refused claim wrote no plan")
    }

    @Test("a token that binds its user refuses anyone else's claim, under transfer too")
    func bindingToken() async throws {
        let database = InMemoryFactDatabase(tokens: ["5e2b9c0a-0000-4000-8000-000000000001": .existingUser("owner")])
        let applier = FactApplier(database: database, apps: try Self.apps(policy: "transfer"))
        await #expect(throws: UseCaseError.ownedByOtherUser("the purchase was made with another user's app account token")) {
            try await applier.apply([Self.purchase(token: "5e2b9c0a-0000-4000-8000-000000000001")], appUserID: "thief")
        }
        try await applier.apply([Self.purchase(token: "5e2b9c0a-0000-4000-8000-000000000001")])
        #expect(database.state.withLock { $0.owners["300"] } == ["owner"], "a notification carrying it links its user")
    }
}
