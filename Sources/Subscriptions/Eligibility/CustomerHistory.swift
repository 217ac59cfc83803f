import AppStore

/// Everything known about one customer's purchases: the facts of every original transaction
/// linked to the customer (an `app_user_id`), or of a receipt given directly.
///
/// Environments are not filtered when it is made: ``counting(under:)`` keeps what counts in
/// each app (eligibility and offer audiences count only environments that grant).
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

    /// The facts of environments that grant in their app under `policies` (Sandbox unless the
    /// app ignores it, Xcode only where Xcode transactions are accepted): what eligibility and
    /// offer audiences count, so a lapsed TestFlight subscription opens no production offer.
    public func counting(under policies: EntitlementPolicies) -> CustomerHistory {
        let counts = { (bundleID: String, environment: AppStoreEnvironment) in policies.policy(for: bundleID).counts(environment) }
        // Usually everything counts (Sandbox grants by default): no second coalescing then.
        guard
            !transactions.allSatisfy({ counts($0.bundleID, $0.environment) })
                || !renewals.allSatisfy({ counts($0.bundleID, $0.environment) })
        else { return self }
        return CustomerHistory(
            transactions: transactions.filter { counts($0.bundleID, $0.environment) },
            renewals: renewals.filter { counts($0.bundleID, $0.environment) })
    }

    /// A customer who never bought anything.
    public static let empty = CustomerHistory(transactions: [])
}
