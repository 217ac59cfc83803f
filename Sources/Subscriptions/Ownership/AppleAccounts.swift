import AppStore

/// The Apple accounts behind an app user's purchases — the 2017 seed's "irregular activity"
/// is many Apple accounts feeding one app account — told apart only by what Apple signs,
/// never by an account's name:
/// - a purchase whose transactions carry an `appTransactionId` belongs to that account (one
///   per Apple account and app);
/// - without one, two original transactions of one subscription group belong to two accounts
///   (an account keeps one original transaction per group, however often it resubscribes).
///
/// The count is a lower bound: purchases of different groups, or one-time purchases, without
/// an `appTransactionId` may come from one account, and are counted as one.
public enum AppleAccounts {
    /// What one purchase says of its account.
    public struct Purchase: Sendable, Equatable {
        /// The purchase: environment and original transaction id.
        public let key: String
        /// Its `appTransactionId`, when any of its transactions carries one.
        public let appTransactionID: String?
        /// Its subscription group (nil for a one-time purchase).
        public let subscriptionGroupID: String?

        public init(key: String, appTransactionID: String?, subscriptionGroupID: String?) {
            self.key = key
            self.appTransactionID = appTransactionID
            self.subscriptionGroupID = subscriptionGroupID
        }
    }

    /// How many Apple accounts at least fed `purchases`.
    public static func count(_ purchases: [Purchase]) -> Int {
        var named: Set<String> = []
        var unnamedByGroup: [String: Set<String>] = [:]
        for purchase in purchases {
            if let id = purchase.appTransactionID {
                named.insert(id)
            } else if let group = purchase.subscriptionGroupID {
                unnamedByGroup[group, default: []].insert(purchase.key)
            }
        }
        return max(named.count, unnamedByGroup.values.map(\.count).max() ?? 0, purchases.isEmpty ? 0 : 1)
    }

    /// The purchases `transactions` belong to (one per original transaction), with `group`
    /// naming each transaction's subscription group.
    public static func purchases(of transactions: [TransactionFact], group: (TransactionFact) -> String?) -> [Purchase] {
        let byPurchase = Dictionary(grouping: transactions) { "\($0.environment.rawValue):\($0.originalTransactionID)" }
        return byPurchase.keys.sorted().map { key in
            let facts = byPurchase[key] ?? []
            return Purchase(
                key: key, appTransactionID: facts.lazy.compactMap(\.appTransactionID).first,
                subscriptionGroupID: facts.lazy.compactMap(group).first)
        }
    }
}
