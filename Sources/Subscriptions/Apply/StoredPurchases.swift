import Foundation

/// What is stored of the purchases one batch of facts speaks about, read inside the
/// transaction that holds their locks: the "stored" input of ``FactApplication``.
///
/// Planning writes into it the facts the plan writes (transactions, renewal info) as the
/// store would read them back (dates at the columns' precision), so the recompute that
/// follows in the same plan compares with what the tables will hold.
public struct StoredPurchases: Sendable {
    /// Transactions by original transaction id.
    public private(set) var transactions: [String: [TransactionFact]] = [:]
    /// Renewal info by original transaction id.
    public private(set) var renewals: [String: RenewalFact] = [:]
    /// The stored rows of the subscriptions, as lifecycle moments, by original transaction id.
    public var subscriptions: [String: SubscriptionMoment] = [:]
    /// The users linked to each purchase whose owners were read (see ``FactApplication``).
    public var owners: [String: Set<String>] = [:]
    /// What each app account token says of its user, by token; a token not here names nobody
    /// here (a hint).
    public var tokens: [String: PurchaseOwnership.Token] = [:]
    /// The original transaction id each transaction is filed under in `transactions`.
    private var originalOfTransaction: [String: String] = [:]
    private let storedTransaction: @Sendable (TransactionFact) -> TransactionFact
    private let storedRenewal: @Sendable (RenewalFact) -> RenewalFact

    /// Nothing stored yet; `storedTransaction` and `storedRenewal` give a fact as the store
    /// reads it back once written.
    public init(
        storedTransaction: @escaping @Sendable (TransactionFact) -> TransactionFact = { $0 },
        storedRenewal: @escaping @Sendable (RenewalFact) -> RenewalFact = { $0 }
    ) {
        self.storedTransaction = storedTransaction
        self.storedRenewal = storedRenewal
    }

    /// Adds a transaction as read from the store.
    public mutating func add(_ fact: TransactionFact) {
        transactions[fact.originalTransactionID, default: []].append(fact)
        originalOfTransaction[fact.transactionID] = fact.originalTransactionID
    }

    /// Adds renewal info as read from the store.
    public mutating func add(_ renewal: RenewalFact) {
        renewals[renewal.originalTransactionID] = renewal
    }

    /// The stored transaction `id`, if any.
    public func transaction(_ id: String) -> TransactionFact? {
        originalOfTransaction[id].flatMap { original in transactions[original]?.first { $0.transactionID == id } }
    }

    /// The newest `appAccountToken` among the stored transactions of purchase `id` (by
    /// purchase date, then transaction id), if any carries one.
    public func newestToken(of id: String) -> String? {
        (transactions[id] ?? []).filter { $0.appAccountToken != nil }
            .max { ($0.purchaseDate, $0.transactionID) < ($1.purchaseDate, $1.transactionID) }?.appAccountToken
    }

    /// Records that `fact` is written over `before` (nil: a new row).
    mutating func wrote(_ fact: TransactionFact, over before: TransactionFact?) {
        if let before {
            transactions[before.originalTransactionID]?.removeAll { $0.transactionID == before.transactionID }
            originalOfTransaction[before.transactionID] = nil
        }
        add(storedTransaction(fact))
    }

    /// Records that `renewal` is written over the renewal info of its original transaction.
    mutating func wrote(_ renewal: RenewalFact) {
        add(storedRenewal(renewal))
    }

}
