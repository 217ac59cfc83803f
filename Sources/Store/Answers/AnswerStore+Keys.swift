import Postgres

extension AnswerStore {
    /// Up to `limit` original transaction ids with a subscription row, in order, after `after`.
    public func subscriptionKeys(after: String, limit: Int) async throws -> [String] {
        try await client.query(PostgresQuery("""
            SELECT DISTINCT original_transaction_id FROM subscriptions
            WHERE original_transaction_id > \(after) ORDER BY original_transaction_id LIMIT \(limit)
            """).prepared()).map { try $0.decode("original_transaction_id") }
    }

    /// Up to `limit` app user ids with a linked subscription, in order, after `after`.
    public func subscriberKeys(after: String, limit: Int) async throws -> [String] {
        try await client.query(PostgresQuery("""
            SELECT DISTINCT app_user_id FROM subscribers
            WHERE app_user_id > \(after) ORDER BY app_user_id LIMIT \(limit)
            """).prepared()).map { try $0.decode("app_user_id") }
    }

    /// How many subscriptions and subscribers have answers to compute.
    public func keyCounts() async throws -> (subscriptions: Int, subscribers: Int) {
        let rows = try await client.query("""
            SELECT (SELECT count(DISTINCT original_transaction_id) FROM subscriptions) AS subscriptions,
                   (SELECT count(DISTINCT app_user_id) FROM subscribers) AS subscribers
            """)
        guard let row = rows.first else { return (0, 0) }
        return (try row.decode("subscriptions"), try row.decode("subscribers"))
    }
}
