import AppStore
import Foundation

extension ReceiptFacts {
    /// The facts of a verifyReceipt response (call it for `.apply` outcomes only).
    ///
    /// Transactions come from `latest_receipt_info`, plus `receipt.in_app` entries with an
    /// expiry date (auto-renewables the latest info may have left out), plus the legacy
    /// `latest_expired_receipt_info` and iOS 6 style receipt. Renewals come from
    /// `pending_renewal_info`, or from legacy top-level auto-renew fields.
    ///
    /// - Parameters:
    ///   - bundleID: used when the receipt names no bundle.
    ///   - observedAt: when the response arrived; renewal facts carry it.
    ///   - environmentFallback: the environment of the URL that answered, for bodies that
    ///     do not name one (legacy 21006 bodies).
    public init(
        verifyResponse response: VerifyReceiptResponse,
        bundleID fallback: String,
        observedAt: Date,
        environmentFallback: AppStoreEnvironment = .production
    ) {
        let environment = response.environment ?? environmentFallback
        let bundleID = response.receipt?.bundleID ?? fallback
        let receipt = response.receipt
        let entries = response.latestReceiptInfo
            + (receipt?.inApp ?? []).filter { $0.expiresDate != nil }
            + [response.latestExpiredReceiptInfo, receipt?.legacyTransaction].compactMap { $0 }
        // Apple's answer speaks for the moment it arrived: a later answer may show a refund
        // reversed.
        let transactions = entries.compactMap {
            TransactionFact(receiptTransaction: $0, bundleID: bundleID, environment: environment)
        }.map { fact in
            var fact = fact
            fact.statedAt = observedAt
            return fact
        }
        var renewals = response.pendingRenewalInfo.compactMap {
            RenewalFact(pendingRenewalInfo: $0, bundleID: bundleID, environment: environment, observedAt: observedAt)
        }
        let legacyOriginal = (response.latestExpiredReceiptInfo ?? receipt?.legacyTransaction)?.originalTransactionID
        if let legacyOriginal, !renewals.contains(where: { $0.originalTransactionID == legacyOriginal }),
           response.autoRenewStatus != nil || response.autoRenewProductID != nil {
            renewals.append(RenewalFact(
                originalTransactionID: legacyOriginal,
                bundleID: bundleID,
                environment: environment,
                autoRenewProductID: response.autoRenewProductID,
                autoRenewStatus: response.autoRenewStatus,
                observedAt: observedAt
            ))
        }
        self.init(
            environment: environment,
            bundleID: bundleID,
            transactions: transactions,
            renewals: renewals,
            latestReceipt: response.latestReceipt
        )
    }
}
