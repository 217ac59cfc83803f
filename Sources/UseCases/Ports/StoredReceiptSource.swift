import AppStore

/// The receipts kept to verify again (`StoredReceipts` in production).
public protocol StoredReceiptSource: Sendable {
    /// The newest stored receipt of any of these subscriptions of one app, or nil.
    func latestReceipt(bundleID: String, environment: AppStoreEnvironment, originalTransactionIDs: [String]) async throws -> String?
}
