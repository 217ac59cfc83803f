import Postgres
import Subscriptions

/// What `subscriptionctl suspicious` reads: the purchases of app users linked to several
/// purchases, with what each says of its Apple account, and purchases linked to several users.
public struct IrregularActivityQueries: Sendable {
    private let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    /// The purchases of every app user linked to at least `minimum` purchases (a user fed by
    /// N accounts has at least N purchases), by user.
    public func purchasesOfUsers(linkedToAtLeast minimum: Int) async throws -> [String: [AppleAccounts.Purchase]] {
        let rows = try await client.query(
            PostgresQuery(
                """
                SELECT l.app_user_id, l.environment, l.original_transaction_id,
                       max(t.app_transaction_id) AS app_transaction_id,
                       max(coalesce(p.subscription_group_id, t.subscription_group_id)) AS subscription_group_id
                FROM subscribers l
                JOIN (SELECT app_user_id FROM subscribers GROUP BY app_user_id HAVING count(*) >= \(minimum)) many USING (app_user_id)
                JOIN transactions t ON t.environment = l.environment AND t.original_transaction_id = l.original_transaction_id
                LEFT JOIN products p ON p.product_id = t.product_id
                GROUP BY l.app_user_id, l.environment, l.original_transaction_id
                ORDER BY l.app_user_id, l.environment, l.original_transaction_id
                """))
        var purchases: [String: [AppleAccounts.Purchase]] = [:]
        for row in rows {
            let environment: String = try row.decode("environment")
            let id: String = try row.decode("original_transaction_id")
            purchases[try row.decode("app_user_id"), default: []].append(
                AppleAccounts.Purchase(
                    key: "\(environment):\(id)", appTransactionID: try row.decode("app_transaction_id"),
                    subscriptionGroupID: try row.decode("subscription_group_id")))
        }
        return purchases
    }

    /// A purchase linked to several app users.
    public struct SharedPurchase: Sendable, Equatable {
        public let environment: String
        public let originalTransactionID: String
        public let appUserIDs: [String]
    }

    /// Every purchase linked to at least `minimum` app users, most users first.
    public func purchases(linkedToAtLeast minimum: Int) async throws -> [SharedPurchase] {
        try await client.query(
            PostgresQuery(
                """
                SELECT environment, original_transaction_id, array_agg(app_user_id ORDER BY app_user_id) AS app_user_ids
                FROM subscribers
                GROUP BY environment, original_transaction_id
                HAVING count(*) >= \(minimum)
                ORDER BY count(*) DESC, environment, original_transaction_id
                """)
        ).map { row in
            SharedPurchase(
                environment: try row.decode("environment"), originalTransactionID: try row.decode("original_transaction_id"),
                appUserIDs: try row.decode("app_user_ids"))
        }
    }
}
