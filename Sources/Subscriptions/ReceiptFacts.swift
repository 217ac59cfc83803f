import AppStore
import Foundation

/// The facts one Apple document states: transactions and renewal info, tagged with the app
/// and environment, ready to be upserted.
///
/// Transactions are coalesced (one per id) and renewals reduced to the newest per
/// subscription, so the value does not depend on the order entries appeared in.
public struct ReceiptFacts: Sendable {
    /// The environment every fact carries.
    public var environment: AppStoreEnvironment
    /// The app every fact belongs to.
    public var bundleID: String
    /// One fact per transaction id, sorted by purchase date.
    public var transactions: [TransactionFact]
    /// At most one renewal fact per original transaction, sorted by it.
    public var renewals: [RenewalFact]
    /// The base64 receipt to store for re-verification.
    public var latestReceipt: String?
    /// The version of the app the customer first bought (a receipt's
    /// `original_application_version`), recorded for the user who proves the receipt.
    public var originalApplicationVersion: String?

    /// Builds facts in code; transactions are coalesced and renewals reduced as documented.
    public init(
        environment: AppStoreEnvironment,
        bundleID: String,
        transactions: [TransactionFact],
        renewals: [RenewalFact],
        latestReceipt: String?,
        originalApplicationVersion: String? = nil
    ) {
        self.environment = environment
        self.bundleID = bundleID
        self.transactions = TransactionFact.coalesced(transactions)
        self.renewals = Dictionary(grouping: renewals, by: \.originalTransactionID)
            .values.compactMap(RenewalFact.newest)
            .sorted { $0.originalTransactionID < $1.originalTransactionID }
        self.latestReceipt = latestReceipt
        self.originalApplicationVersion = originalApplicationVersion
    }

    /// The original transactions that are auto-renewable subscriptions here (some transaction
    /// has an expiry date) or that renewal info speaks about, sorted.
    public var subscriptionIDs: [String] {
        let fromTransactions = transactions.filter { $0.expiresDate != nil }.map(\.originalTransactionID)
        return Set(fromTransactions + renewals.map(\.originalTransactionID)).sorted()
    }

    /// Every original transaction these facts speak about (subscriptions and one-time
    /// purchases), sorted.
    public var originalTransactionIDs: [String] {
        Set(transactions.map(\.originalTransactionID) + renewals.map(\.originalTransactionID)).sorted()
    }

    /// The original transactions of one-time purchases here (consumables, non-consumables,
    /// non-renewing subscriptions), sorted: linked to the user who proves them like
    /// subscriptions, never given a subscription row.
    public var oneTimePurchaseIDs: [String] {
        Set(transactions.filter(\.isOneTimePurchase).map(\.originalTransactionID)).subtracting(subscriptionIDs).sorted()
    }

    /// The transactions of one subscription.
    public func transactions(of originalTransactionID: String) -> [TransactionFact] {
        transactions.filter { $0.originalTransactionID == originalTransactionID }
    }

    /// The renewal fact of one subscription, if any.
    public func renewal(of originalTransactionID: String) -> RenewalFact? {
        renewals.first { $0.originalTransactionID == originalTransactionID }
    }

    /// The status of one subscription from these facts alone.
    public func snapshot(of originalTransactionID: String, at now: Date) -> SubscriptionSnapshot? {
        SubscriptionStatusRule.snapshot(
            originalTransactionID: originalTransactionID,
            transactions: transactions(of: originalTransactionID),
            renewal: renewal(of: originalTransactionID),
            at: now
        )
    }
}
