import AppStore
import Foundation

extension ReceiptFacts {
    /// The facts of a verifyReceipt response (call it for `.apply` outcomes only).
    ///
    /// Transactions come from `latest_receipt_info`, plus every `receipt.in_app` entry
    /// (auto-renewables the latest info may have left out, and the one-time purchases —
    /// consumables, non-consumables, non-renewing subscriptions — which an app without
    /// auto-renewables finds only there), plus the legacy `latest_expired_receipt_info` and
    /// iOS 6 style receipt. Renewals come from `pending_renewal_info`, or from legacy
    /// top-level auto-renew fields. The receipt's `original_application_version` comes along
    /// for grandfathering.
    ///
    /// The answer speaks for the moment Apple received the request (`receipt.request_date_ms`,
    /// Apple's clock, the same clock as a signed payload's `signedDate`): transactions carry
    /// it as `statedAt`, so a later answer can show a refund reversed. `receipt.in_app`
    /// entries are the device's old snapshot and carry none, so they never un-revoke; nor
    /// does an answer without a request date, or one dated more than a day after it arrived.
    ///
    /// - Parameters:
    ///   - bundleID: used when the receipt names no bundle.
    ///   - observedAt: when the response arrived (this host's clock); renewal facts carry
    ///     Apple's request date instead when the answer has one.
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
        let statedAt = receipt?.requestDate.flatMap { $0 <= observedAt.addingTimeInterval(Self.futureTolerance) ? $0 : nil }
        let stated = response.latestReceiptInfo + [response.latestExpiredReceiptInfo, receipt?.legacyTransaction].compactMap { $0 }
        let snapshot = receipt?.inApp ?? []
        func facts(_ entries: [ReceiptTransaction], statedAt: Date?) -> [TransactionFact] {
            entries.compactMap { TransactionFact(receiptTransaction: $0, bundleID: bundleID, environment: environment) }.map { fact in
                var fact = fact
                fact.statedAt = statedAt
                return fact
            }
        }
        let transactions = facts(stated, statedAt: statedAt) + facts(snapshot, statedAt: nil)
        let renewalTime = statedAt ?? observedAt
        var renewals = response.pendingRenewalInfo.compactMap {
            RenewalFact(pendingRenewalInfo: $0, bundleID: bundleID, environment: environment, observedAt: renewalTime)
        }
        let legacyOriginal = (response.latestExpiredReceiptInfo ?? receipt?.legacyTransaction)?.originalTransactionID
        if let legacyOriginal, !renewals.contains(where: { $0.originalTransactionID == legacyOriginal }),
            response.autoRenewStatus != nil || response.autoRenewProductID != nil
        {
            renewals.append(
                RenewalFact(
                    originalTransactionID: legacyOriginal,
                    bundleID: bundleID,
                    environment: environment,
                    autoRenewProductID: response.autoRenewProductID,
                    autoRenewStatus: response.autoRenewStatus,
                    observedAt: renewalTime
                ))
        }
        self.init(
            environment: environment,
            bundleID: bundleID,
            transactions: transactions,
            renewals: renewals,
            latestReceipt: response.latestReceipt,
            originalApplicationVersion: receipt?.originalApplicationVersion
        )
    }
}

extension ReceiptFacts {
    /// How far after its arrival an answer's request date may lie (clock skew); later is refused.
    static let futureTolerance: TimeInterval = 24 * 60 * 60
}
