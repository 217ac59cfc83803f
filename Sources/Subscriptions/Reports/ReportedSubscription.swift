import AppStore
import Foundation

/// One purchase chain as the reports read it: an auto-renewable subscription's transactions
/// and renewal fact, or one one-time purchase (which counts only in revenue, proceeds and
/// refunds).
public struct ReportedSubscription: Sendable {
    public let originalTransactionID: String
    public let bundleID: String
    public let environment: AppStoreEnvironment
    /// Every transaction of the chain, oldest first.
    public let transactions: [TransactionFact]
    public let renewal: RenewalFact?
    /// True for an auto-renewable subscription.
    public let isAutoRenewable: Bool
    /// The paid periods that start after a year of paid service in the chain (by transaction
    /// id), whose commission is reduced: worked out once, when the chain is made.
    let afterPaidYear: Set<String>

    public init(
        originalTransactionID: String, bundleID: String, environment: AppStoreEnvironment, transactions: [TransactionFact],
        renewal: RenewalFact?, isAutoRenewable: Bool
    ) {
        self.originalTransactionID = originalTransactionID
        self.bundleID = bundleID
        self.environment = environment
        let sorted = transactions.sorted { ($0.purchaseDate, $0.transactionID) < ($1.purchaseDate, $1.transactionID) }
        self.transactions = sorted
        self.renewal = renewal
        self.isAutoRenewable = isAutoRenewable
        self.afterPaidYear = isAutoRenewable ? Self.periodsAfterPaidYear(sorted) : []
    }

    /// The paid, not wholly refunded periods of `transactions` that start after a year of
    /// paid service (``PaidServiceYear``).
    private static func periodsAfterPaidYear(_ transactions: [TransactionFact]) -> Set<String> {
        let paid = transactions.filter { $0.isPaid && $0.refundedShare != 1 }
        let periods = paid.map { DateInterval(start: $0.purchaseDate, end: max($0.purchaseDate, $0.expiresDate ?? $0.purchaseDate)) }
        return Set(zip(paid, PaidServiceYear.reduced(periods)).filter(\.1).map(\.0.transactionID))
    }

    /// The chains of `history`: one per original transaction and environment.
    public static func chains(of history: CustomerHistory, isAutoRenewable: (TransactionFact) -> Bool) -> [ReportedSubscription] {
        let byChain = Dictionary(grouping: history.transactions) { "\($0.environment.rawValue)|\($0.originalTransactionID)" }
        return byChain.values.compactMap { transactions in
            guard let first = transactions.first else { return nil }
            return ReportedSubscription(
                originalTransactionID: first.originalTransactionID, bundleID: first.bundleID, environment: first.environment,
                transactions: transactions,
                renewal: history.renewals.first {
                    $0.originalTransactionID == first.originalTransactionID && $0.environment == first.environment
                },
                isAutoRenewable: isAutoRenewable(first))
        }.sorted { $0.originalTransactionID < $1.originalTransactionID }
    }

    /// The chain as it was known to be at `instant`, seen from now: transactions bought by
    /// then, and a refund only from its revocation date (before it, the period and its price
    /// stand).
    func asOf(_ instant: Date) -> [TransactionFact] {
        transactions.filter { $0.purchaseDate <= instant }.map { transaction in
            guard let revoked = transaction.cancellationDate, revoked > instant else { return transaction }
            var before = transaction
            before.cancellationDate = nil
            before.cancellationReason = nil
            return before
        }
    }

    /// The status at `instant` of `known`, the chain as known at it (``asOf(_:)``).
    private func snapshot(at instant: Date, known: [TransactionFact]) -> SubscriptionSnapshot? {
        guard !known.isEmpty else { return nil }
        return SubscriptionStatusRule.snapshot(
            originalTransactionID: originalTransactionID, transactions: known, renewal: renewal, at: instant)
    }

    /// What a chain is at `instant` for the reports, as known now.
    struct ReportState: Equatable {
        /// Paid and active, or in a grace period.
        let paid: Bool
        /// In a free trial.
        let trial: Bool
        /// The transaction of the current (in grace, the last) period.
        let transaction: TransactionFact
    }

    /// The chain at `instant`, as known now; nil before its first purchase.
    func reportState(at instant: Date) -> ReportState? {
        let known = asOf(instant)
        guard let snapshot = snapshot(at: instant, known: known) else { return nil }
        guard let transaction = known.last(where: { $0.transactionID == snapshot.latestTransactionID }) ?? known.last else {
            return nil
        }
        let entitled = snapshot.status == .active || snapshot.status == .gracePeriod
        return ReportState(
            paid: entitled && !snapshot.inTrial, trial: snapshot.status == .active && snapshot.inTrial, transaction: transaction)
    }
}
