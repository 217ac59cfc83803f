import Foundation

extension NotificationV1 {
    /// Decodes a raw request body.
    public static func decode(from bytes: [UInt8]) throws -> NotificationV1 {
        try JSONDecoder().decode(NotificationV1.self, from: Data(bytes))
    }

    /// The receipt to send to verifyReceipt: the unified one, else the legacy top-level ones.
    public var receiptData: String? {
        unifiedReceipt?.latestReceipt ?? latestReceipt ?? latestExpiredReceipt
    }

    /// Every transaction the body carries, unified first, each transaction id once.
    public var allTransactions: [ReceiptTransaction] {
        let candidates =
            (unifiedReceipt?.latestReceiptInfo ?? [])
            + [latestReceiptInfo, latestExpiredReceiptInfo].compactMap { $0 }
        var seen = Set<String>()
        return candidates.filter { seen.insert($0.transactionID).inserted }
    }

    /// Every subscription the body touches, sorted: from its transactions, its pending
    /// renewal info and the legacy top-level `original_transaction_id`.
    public var originalTransactionIDs: [String] {
        var ids = Set(allTransactions.map(\.originalTransactionID))
        ids.formUnion((unifiedReceipt?.pendingRenewalInfo ?? []).compactMap(\.originalTransactionID))
        if let originalTransactionID { ids.insert(originalTransactionID) }
        return ids.sorted()
    }
}
