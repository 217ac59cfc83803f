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
    ///
    /// One statement: the subscription's row picks the environment, its transactions,
    /// renewal info and the catalog's group of their products come joined to it.
    public func subscription(originalTransactionID id: String, now: Date = Date()) async throws -> SubscriptionView? {
        let rows = try await client.query(PostgresQuery("""
            SELECT \(unescaped: JoinedFacts.columns),
                   s.environment AS link_environment, s.original_transaction_id AS link_original_transaction_id,
                   s.updated_at AS subscription_updated_at, p.subscription_group_id AS catalog_group_id
            FROM (SELECT environment, original_transaction_id, updated_at FROM subscriptions
                  WHERE original_transaction_id = \(id) ORDER BY environment LIMIT 1) s
            LEFT JOIN transactions t ON t.environment = s.environment AND t.original_transaction_id = s.original_transaction_id
            LEFT JOIN renewal_info r ON r.environment = s.environment AND r.original_transaction_id = s.original_transaction_id
            LEFT JOIN products p ON p.product_id = t.product_id
            """).prepared())
        return try JoinedFacts(rows: rows).views(at: now).first
    }

    /// Every subscription linked to an app user, or nil when the user is unknown.
    ///
    /// One statement: the user's links, each with its transactions, renewal info,
    /// `subscriptions.updated_at` and the catalog's group of the transactions' products,
    /// ordered by environment and original transaction id.
    public func subscriber(appUserID: String, now: Date = Date()) async throws -> [SubscriptionView]? {
        let rows = try await client.query(PostgresQuery("""
            SELECT \(unescaped: JoinedFacts.columns),
                   l.environment AS link_environment, l.original_transaction_id AS link_original_transaction_id,
                   s.updated_at AS subscription_updated_at, p.subscription_group_id AS catalog_group_id
            FROM subscribers l
            LEFT JOIN transactions t ON t.environment = l.environment AND t.original_transaction_id = l.original_transaction_id
            LEFT JOIN renewal_info r ON r.environment = l.environment AND r.original_transaction_id = l.original_transaction_id
            LEFT JOIN subscriptions s ON s.environment = l.environment AND s.original_transaction_id = l.original_transaction_id
            LEFT JOIN products p ON p.product_id = t.product_id
            WHERE l.app_user_id = \(appUserID)
            ORDER BY l.environment, l.original_transaction_id
            """).prepared())
        guard !rows.isEmpty else { return nil }
        return try JoinedFacts(rows: rows).views(at: now)
    }

    /// Builds views for several subscriptions of one environment with four indexed queries.
    static func views(environment: AppStoreEnvironment, ids: [String], now: Date, in session: PostgresSession) throws -> [SubscriptionView] {
        let facts = try StoredFacts.load(environment: environment, originalTransactionIDs: ids, in: session)
        var updatedAt: [String: Date] = [:]
        for row in try session.query(PostgresQuery("""
            SELECT original_transaction_id, updated_at FROM subscriptions
            WHERE environment = \(environment.rawValue) AND original_transaction_id = ANY(\(ids)::text[])
            """)) { // not prepared: planned for its keys (see `FactStore.apply`)
            updatedAt[try row.decode("original_transaction_id")] = try row.decode("updated_at")
        }
        let productIDs = Array(Set(facts.transactions.values.flatMap { $0.map(\.productID) }))
        var catalogGroups: [String: String] = [:]
        for row in try session.query(PostgresQuery("""
            SELECT product_id, subscription_group_id FROM products
            WHERE product_id = ANY(\(productIDs)::text[]) AND subscription_group_id IS NOT NULL
            """).prepared()) {
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
