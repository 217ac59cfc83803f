import AppStore
import Foundation
import Postgres
import Subscriptions

/// One subscription as read: its status computed from the stored facts at read time.
public struct SubscriptionView: Sendable {
    /// Status and fields at the time of the read.
    public let snapshot: SubscriptionSnapshot
    /// When the stored row last changed.
    public let updatedAt: Date
    /// Every transaction of the subscription, oldest first.
    public let transactions: [TransactionFact]
    /// The newest renewal info, if any.
    public let renewal: RenewalFact?
}

/// Reads subscriptions and subscribers. Status is recomputed at `now` from stored facts,
/// so a read never says `active` after `expires_at` even if nothing was processed since.
public struct SubscriptionReader: Sendable {
    private let client: PostgresClient

    /// Creates the reader.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// The subscription of an original transaction (Production preferred over Sandbox), or nil.
    public func subscription(originalTransactionID id: String, now: Date = Date()) async throws -> SubscriptionView? {
        try await client.withConnection { session in
            let rows = try session.query("""
                SELECT environment FROM subscriptions WHERE original_transaction_id = \(id) ORDER BY environment
                """)
            guard let first = rows.first else { return nil }
            let environment = try AppStoreEnvironment(row: first)
            return try Self.views(environment: environment, ids: [id], now: now, in: session).first
        }
    }

    /// Every subscription linked to an app user, or nil when the user is unknown.
    public func subscriber(appUserID: String, now: Date = Date()) async throws -> [SubscriptionView]? {
        try await client.withConnection { session in
            let links = try session.query("""
                SELECT environment, original_transaction_id FROM subscribers WHERE app_user_id = \(appUserID)
                ORDER BY environment, original_transaction_id
                """)
            guard !links.isEmpty else { return nil }
            var byEnvironment: [AppStoreEnvironment: [String]] = [:]
            for link in links {
                byEnvironment[try AppStoreEnvironment(row: link), default: []].append(try link.decode("original_transaction_id"))
            }
            var views: [SubscriptionView] = []
            for environment in byEnvironment.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
                views += try Self.views(environment: environment, ids: byEnvironment[environment] ?? [], now: now, in: session)
            }
            return views
        }
    }

    /// Builds views for several subscriptions of one environment with four indexed queries.
    static func views(environment: AppStoreEnvironment, ids: [String], now: Date, in session: PostgresSession) throws -> [SubscriptionView] {
        let facts = try StoredFacts.load(environment: environment, originalTransactionIDs: ids, in: session)
        var updatedAt: [String: Date] = [:]
        for row in try session.query("""
            SELECT original_transaction_id, updated_at FROM subscriptions
            WHERE environment = \(environment.rawValue) AND original_transaction_id = ANY(\(ids)::text[])
            """) {
            updatedAt[try row.decode("original_transaction_id")] = try row.decode("updated_at")
        }
        let productIDs = Array(Set(facts.transactions.values.flatMap { $0.map(\.productID) }))
        var catalogGroups: [String: String] = [:]
        for row in try session.query("""
            SELECT product_id, subscription_group_id FROM products
            WHERE product_id = ANY(\(productIDs)::text[]) AND subscription_group_id IS NOT NULL
            """) {
            catalogGroups[try row.decode("product_id")] = try row.decode("subscription_group_id")
        }
        return ids.compactMap { id in
            let transactions = TransactionFact.coalesced(facts.transactions[id] ?? [])
            guard var snapshot = SubscriptionStatusRule.snapshot(
                originalTransactionID: id, transactions: transactions, renewal: facts.renewals[id], at: now
            ) else { return nil }
            // The catalog's group wins; products it does not list keep the receipt's group.
            snapshot.subscriptionGroupID = catalogGroups[snapshot.productID] ?? snapshot.subscriptionGroupID
            return SubscriptionView(snapshot: snapshot, updatedAt: updatedAt[id] ?? now, transactions: transactions, renewal: facts.renewals[id])
        }
    }
}
