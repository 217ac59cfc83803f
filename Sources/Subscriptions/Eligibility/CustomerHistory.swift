/// Everything known about one customer's purchases: the facts of every original transaction
/// linked to the customer (an `app_user_id`), or of a receipt given directly.
///
/// Environments are not filtered here: the caller decides whether sandbox facts belong to
/// the question (a sandbox tester's history is usually asked about in sandbox).
public struct CustomerHistory: Sendable {
    /// One fact per transaction id and environment (repeated observations merged).
    public let transactions: [TransactionFact]
    /// The renewal statements about the customer's subscriptions; the newest per subscription applies.
    public let renewals: [RenewalFact]

    /// A history from facts in any order; repeated transaction facts are merged (flags OR-ed).
    public init(transactions: [TransactionFact], renewals: [RenewalFact] = []) {
        self.transactions = TransactionFact.coalesced(transactions)
        self.renewals = renewals
    }

    /// The history several receipts state together (e.g. a receipt given directly).
    public init(receipts: [ReceiptFacts]) {
        self.init(transactions: receipts.flatMap(\.transactions), renewals: receipts.flatMap(\.renewals))
    }

    /// A customer who never bought anything.
    public static let empty = CustomerHistory(transactions: [])
}
