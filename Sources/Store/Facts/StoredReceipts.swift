import AppStore
import Postgres

/// The receipts kept for re-verification (`subscriptions.latest_receipt`).
public struct StoredReceipts: Sendable {
    private let client: PostgresClient

    /// Creates the repository.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// The newest stored receipt of any of these subscriptions of one app, or nil.
    ///
    /// A version 1 notification without a receipt of its own is verified through this one,
    /// so that what it claims is never applied without Apple's word.
    public func latestReceipt(bundleID: String, environment: AppStoreEnvironment, originalTransactionIDs: [String]) async throws -> String?
    {
        guard !originalTransactionIDs.isEmpty else { return nil }
        return try await client.withConnection { session in
            try session.queryFirst(
                """
                SELECT latest_receipt FROM subscriptions
                WHERE environment = \(environment.rawValue) AND bundle_id = \(bundleID)
                  AND original_transaction_id = ANY(\(originalTransactionIDs)::text[]) AND latest_receipt IS NOT NULL
                ORDER BY latest_receipt_observed_at DESC NULLS LAST
                LIMIT 1
                """)?.decode("latest_receipt", as: String?.self)
        }
    }
}
