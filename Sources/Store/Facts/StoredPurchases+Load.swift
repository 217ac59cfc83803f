import AppStore
import Foundation
import Postgres
import Subscriptions

extension StoredPurchases {
    /// Every stored fact of the original transactions `ids`, and the transactions
    /// `transactionIDs` whatever original transaction their rows name (those a merge compares
    /// with), loaded with two indexed queries sent unprepared, so each is planned for its keys
    /// (see ``FactStore/load(for:claimant:in:)``). Facts written by a plan are kept as their
    /// rows read back (dates at the columns' precision).
    static func load(
        environment: AppStoreEnvironment, originalTransactionIDs ids: [String], transactionIDs: [String] = [],
        in session: PostgresSession
    ) throws -> StoredPurchases {
        var stored = StoredPurchases(storedTransaction: { $0.asStored }, storedRenewal: { $0.asStored })
        let query: PostgresQuery =
            transactionIDs.isEmpty
            ? """
            SELECT \(unescaped: TransactionFact.columns) FROM transactions
            WHERE environment = \(environment.rawValue) AND original_transaction_id = ANY(\(ids)::text[])
            """
            : """
            SELECT \(unescaped: TransactionFact.columns) FROM transactions
            WHERE environment = \(environment.rawValue)
              AND (original_transaction_id = ANY(\(ids)::text[]) OR transaction_id = ANY(\(transactionIDs)::text[]))
            """
        for row in try session.query(query) {
            stored.add(try TransactionFact(row: row))
        }
        for row in try session.query(
            PostgresQuery(
                """
                SELECT \(unescaped: RenewalFact.columns) FROM renewal_info
                WHERE environment = \(environment.rawValue) AND original_transaction_id = ANY(\(ids)::text[])
                """))
        {
            stored.add(try RenewalFact(row: row))
        }
        return stored
    }

    /// Adds the stored rows of the subscriptions `ids`, locked for the caller's transaction.
    mutating func loadSubscriptions(environment: AppStoreEnvironment, ids: [String], in session: PostgresSession) throws {
        guard !ids.isEmpty else { return }
        let query = PostgresQuery(
            """
            SELECT original_transaction_id, status, product_id, expires_at, auto_renew, auto_renew_product_id, latest_transaction_id,
                   expiration_intent, revocation_reason
            FROM subscriptions WHERE environment = \(environment.rawValue) AND original_transaction_id \(equalsOneOf: ids)
            FOR UPDATE
            """)
        // One key (`= $2`) keeps the connection's cached plan; a list is planned for its keys.
        for row in try session.query(ids.count == 1 ? query.prepared() : query) {
            subscriptions[try row.decode("original_transaction_id")] = try SubscriptionMoment(row: row)
        }
    }

    /// Adds the owners of purchases `ids` and what every app account token among their
    /// transactions (stored, or arriving in `incoming`) says of its user (the SQL function
    /// `app_account_token_owners`, which consent reads too).
    mutating func loadOwners(
        environment: AppStoreEnvironment, ids: [String], incoming: [TransactionFact], in session: PostgresSession
    ) throws {
        guard !ids.isEmpty else { return }
        for id in ids { owners[id] = [] }
        let query = PostgresQuery(
            """
            SELECT original_transaction_id, app_user_id FROM subscribers
            WHERE environment = \(environment.rawValue) AND original_transaction_id \(equalsOneOf: ids)
            """)
        for row in try session.query(ids.count == 1 ? query.prepared() : query) {
            owners[try row.decode("original_transaction_id", as: String.self), default: []].insert(try row.decode("app_user_id"))
        }
        let tokens = Set(ids.flatMap { (transactions[$0] ?? []).compactMap(\.appAccountToken) } + incoming.compactMap(\.appAccountToken))
        guard !tokens.isEmpty else { return }
        // Not prepared: the function's lookups are planned for the tables as they are now.
        for row in try session.query(
            PostgresQuery("SELECT token, kind, app_user_id FROM app_account_token_owners(\(tokens.sorted())::text[])"))
        {
            let token: String = try row.decode("token")
            self.tokens[token] = try PurchaseOwnership.Token(kind: try row.decode("kind"), user: try row.decode("app_user_id"))
        }
    }
}

extension PurchaseOwnership.Token {
    /// What `app_account_token_owners` says of a token: its kind and the user it names.
    init(kind: String, user: String?) throws {
        switch (kind, user) {
        case ("issued", let user?): self = .issued(to: user)
        case ("existing_user", let user?): self = .existingUser(user)
        case ("hint", let user?): self = .userID(user)
        case ("forgotten", _): self = .forgotten
        default: throw StoreError("app_account_token_owners answered \(kind) without a user")
        }
    }
}

extension SubscriptionMoment {
    /// Reads the lifecycle columns of a `subscriptions` row.
    init(row: PostgresRow) throws {
        let status: String = try row.decode("status")
        guard let parsed = SubscriptionStatus(rawValue: status) else { throw StoreError("unknown status '\(status)' in subscriptions") }
        self.init(
            status: parsed, productID: try row.decode("product_id"), expiresAt: try row.decode("expires_at"),
            autoRenew: try row.decode("auto_renew"), autoRenewProductID: try row.decode("auto_renew_product_id"),
            latestTransactionID: try row.decode("latest_transaction_id"),
            expirationIntent: try row.decode("expiration_intent", as: String?.self).flatMap(ExpirationIntent.init(rawValue:)),
            revocationReason: try row.decode("revocation_reason"))
    }
}
