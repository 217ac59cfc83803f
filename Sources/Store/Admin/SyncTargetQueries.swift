import AppStore
import Postgres

/// A stored subscription for `subscriptionctl sync` to read again from Apple.
public struct SyncTarget: Sendable, Equatable {
    public let originalTransactionID: String
    public let bundleID: String
    public let environment: AppStoreEnvironment

    init(row: PostgresRow) throws {
        originalTransactionID = try row.decode("original_transaction_id")
        bundleID = try row.decode("bundle_id")
        environment = try AppStoreEnvironment(row: row)
    }
}

/// Which stored subscriptions `sync` takes.
public struct SyncTargetQueries: Sendable {
    private let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    /// The stored subscriptions of `bundleIDs` (`originalTransactionIDs` nil: all of them),
    /// ordered by original transaction id and environment.
    public func targets(originalTransactionIDs: [String]?, bundleIDs: [String]) async throws -> [SyncTarget] {
        let rows: [PostgresRow]
        if let ids = originalTransactionIDs {
            rows = try await client.query(
                """
                SELECT original_transaction_id, bundle_id, environment FROM subscriptions
                WHERE original_transaction_id = ANY(\(ids)::text[]) AND bundle_id = ANY(\(bundleIDs)::text[]) AND environment <> 'Xcode'
                ORDER BY original_transaction_id, environment
                """)
        } else {
            rows = try await client.query(
                """
                SELECT original_transaction_id, bundle_id, environment FROM subscriptions
                WHERE bundle_id = ANY(\(bundleIDs)::text[]) AND environment <> 'Xcode' ORDER BY original_transaction_id, environment
                """)
        }
        return try rows.map(SyncTarget.init(row:))
    }
}
