import AppStore
import Foundation

extension ReceiptFacts {
    /// The facts a v1 notification body states by itself (without calling verifyReceipt).
    ///
    /// What a body *claims*, for reading real captures in tests and the fuzzer: subscriptiond
    /// never applies these (a body is authenticated by a shared secret alone); the worker
    /// applies only Apple's verifyReceipt answer.
    ///
    /// Transactions come from `unified_receipt` and the legacy top-level objects; renewals
    /// from `pending_renewal_info`, plus one from the top-level `auto_renew_status`,
    /// `auto_renew_product_id` and `expiration_intent` for the notification's subscription
    /// when no pending renewal info covers it.
    ///
    /// - Parameters:
    ///   - observedAt: when the notification was processed; renewal facts carry it.
    ///   - fallback: the app's bundle id, for bodies without `bid` (the intake knows it).
    ///   - environmentFallback: for bodies that name no environment.
    public init(
        notification n: NotificationV1,
        observedAt: Date,
        bundleID fallback: String? = nil,
        environmentFallback: AppStoreEnvironment = .production
    ) {
        let environment = n.environment ?? n.unifiedReceipt?.environment ?? environmentFallback
        let entries = n.allTransactions
        let bundleID = n.bundleID ?? entries.lazy.compactMap(\.bundleID).first ?? fallback ?? ""
        let transactions = entries.compactMap {
            TransactionFact(receiptTransaction: $0, bundleID: bundleID, environment: environment)
        }
        var renewals = (n.unifiedReceipt?.pendingRenewalInfo ?? []).compactMap {
            RenewalFact(pendingRenewalInfo: $0, bundleID: bundleID, environment: environment, observedAt: observedAt)
        }
        let newestEntry = transactions.max(by: TransactionFact.isOlderPeriod)
        let hasTopLevelRenewal =
            n.autoRenewStatus != nil || n.autoRenewProductID != nil
            || n.expirationIntentRaw != nil || n.isInBillingRetryPeriod != nil
        if let original = n.originalTransactionID ?? newestEntry?.originalTransactionID, hasTopLevelRenewal,
            !renewals.contains(where: { $0.originalTransactionID == original })
        {
            renewals.append(
                RenewalFact(
                    originalTransactionID: original,
                    bundleID: bundleID,
                    environment: environment,
                    productID: newestEntry?.productID,
                    autoRenewProductID: n.autoRenewProductID,
                    autoRenewStatus: n.autoRenewStatus,
                    expirationIntent: n.expirationIntent,
                    isInBillingRetryPeriod: n.isInBillingRetryPeriod ?? false,
                    observedAt: observedAt
                ))
        }
        self.init(
            environment: environment,
            bundleID: bundleID,
            transactions: transactions,
            renewals: renewals,
            latestReceipt: n.receiptData
        )
    }
}
