import AppStore
import Foundation
import Postgres
import Store
import Subscriptions
import TestSupport

/// Facts written the way the worker writes them (`FactStore`: the plan, its links, status
/// events and webhook events), for the console's read tests.
enum ConsoleFixture {
    static let app = "com.example.app"
    static let monthly = "com.example.pro.monthly"
    static let day: TimeInterval = 86_400

    /// The catalog: a monthly subscription granting `pro`, and coins.
    static func importCatalog(_ database: PostgresClient) async throws {
        try await ProductStore(client: database).replace(
            with: [
                Product(
                    productID: monthly, bundleID: app, type: .autoRenewable, subscriptionGroupID: "20500000",
                    period: ISO8601Duration("P1M")),
                Product(productID: "com.example.coins.100", bundleID: app, type: .consumable),
            ],
            entitlements: [Entitlement(id: "pro", productIDs: [monthly])])
    }

    /// A paid period of `original`: transaction `id` from `start` for `days` days.
    static func period(
        _ id: String, of original: String, start: Date, days: Double = 30, environment: AppStoreEnvironment = .production,
        token: String? = nil
    ) -> TransactionFact {
        TransactionFact(
            transactionID: id, originalTransactionID: original, productID: monthly, bundleID: app, environment: environment,
            subscriptionGroupID: "20500000", purchaseDate: start, expiresDate: start.addingTimeInterval(days * day),
            source: token == nil ? .v1 : .v2, appAccountToken: token, productType: .autoRenewable)
    }

    /// Applies `transactions` (and renewal info saying auto-renew is `autoRenew`) as of `now`,
    /// proved by `user` (nil: by nobody, as a notification proves it), in one transaction.
    static func apply(
        _ transactions: [TransactionFact], autoRenew: Bool? = true, user: String?, policy: LinkPolicy = .transfer, now: Date,
        in database: PostgresClient
    ) async throws {
        guard let first = transactions.first else { return }
        let renewals = autoRenew.map { on in
            [
                RenewalFact(
                    originalTransactionID: first.originalTransactionID, bundleID: app, environment: first.environment, productID: monthly,
                    autoRenewProductID: monthly, autoRenewStatus: on, observedAt: now)
            ]
        }
        let facts = ReceiptFacts(
            environment: first.environment, bundleID: app, transactions: transactions, renewals: renewals ?? [], latestReceipt: nil)
        try await database.withTransaction { session in
            _ = try FactStore.applyForTests(
                facts, receiptObservedAt: now, notificationID: nil, appUserID: user, linkPolicy: policy, now: now, in: session)
        }
    }

    /// Stores `count` v1 notifications about `original` through the inbox, `batch` per
    /// statement (a batch shares one `received_at`).
    static func notify(
        _ count: Int, about original: String?, environment: AppStoreEnvironment = .production, user: String? = nil,
        source: InboxSource = .v1, batch: Int = 1, tag: String, in database: PostgresClient
    ) async throws {
        let entries = (0..<count).map { index in
            InboxEntry(
                source: source, dedupeKey: "\(source.rawValue):\(tag)-\(index)", notificationType: source == .v1 ? "DID_RENEW" : nil,
                environment: environment, bundleID: app, originalTransactionID: original, appUserID: user,
                body: #"{"n": \#(index)}"#)
        }
        for start in stride(from: 0, to: entries.count, by: max(1, batch)) {
            _ = try await NotificationInbox(client: database).insertBatch(Array(entries[start..<min(entries.count, start + batch)]))
        }
    }
}
