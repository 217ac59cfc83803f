import Postgres

extension AnswerStore {
    /// Up to `limit` original transaction ids with a subscription row, in order, after `after`.
    public func subscriptionKeys(after: String, limit: Int) async throws -> [String] {
        try await client.query(
            PostgresQuery(
                """
                SELECT DISTINCT original_transaction_id FROM subscriptions
                WHERE original_transaction_id > \(after) ORDER BY original_transaction_id LIMIT \(limit)
                """
            ).prepared()
        ).map { try $0.decode("original_transaction_id") }
    }

    /// Up to `limit` known app user ids (a link, a grant or a recorded original application
    /// version), in order, after `after`.
    public func subscriberKeys(after: String, limit: Int) async throws -> [String] {
        try await client.query(
            PostgresQuery(
                """
                SELECT app_user_id FROM (
                    (SELECT DISTINCT app_user_id FROM subscribers WHERE app_user_id > \(after) ORDER BY app_user_id LIMIT \(limit))
                    UNION
                    (SELECT DISTINCT app_user_id FROM entitlement_grants WHERE app_user_id > \(after) ORDER BY app_user_id LIMIT \(limit))
                    UNION
                    (SELECT DISTINCT app_user_id FROM original_application_versions WHERE app_user_id > \(after) ORDER BY app_user_id LIMIT \(limit))
                ) known ORDER BY app_user_id LIMIT \(limit)
                """
            ).prepared()
        ).map { try $0.decode("app_user_id") }
    }

    /// How many subscriptions and subscribers have answers to compute.
    public func keyCounts() async throws -> (subscriptions: Int, subscribers: Int) {
        let rows = try await client.query(
            """
            SELECT (SELECT count(DISTINCT original_transaction_id) FROM subscriptions) AS subscriptions,
                   (SELECT count(DISTINCT app_user_id) FROM subscribers) AS subscribers
            """)
        guard let row = rows.first else { return (0, 0) }
        return (try row.decode("subscriptions"), try row.decode("subscribers"))
    }
}

extension AnswerStore {
    /// The stamps to store newly computed answers of these subscriptions with, read before
    /// their facts (see `AnswerStamp`).
    public func subscriptionStamps(_ ids: [String]) async throws -> [String: AnswerStamp] {
        try await stamps(in: "subscription_answers", keyColumn: "original_transaction_id", keys: ids)
    }

    /// The stamps to store newly computed answers of these users with, read before their facts.
    public func subscriberStamps(_ appUserIDs: [String]) async throws -> [String: AnswerStamp] {
        try await stamps(in: "subscriber_answers", keyColumn: "app_user_id", keys: appUserIDs)
    }

    private func stamps(in table: StaticString, keyColumn: StaticString, keys: [String]) async throws -> [String: AnswerStamp] {
        let rows = try await client.query(
            PostgresQuery(
                """
                SELECT k.key, a.version AS answer_version, g.generation AS answer_catalog_generation
                FROM unnest(\(keys)::text[]) AS k (key)
                CROSS JOIN answer_catalog_generation g
                LEFT JOIN \(unescaped: table) a ON a.\(unescaped: keyColumn) = k.key
                """
            ).prepared())
        var stamps: [String: AnswerStamp] = [:]
        for row in rows { stamps[try row.decode("key")] = try AnswerStamp(row: row) }
        return stamps
    }
}
