import AppStore
import Foundation

extension TransactionFact {
    /// One fact per transaction id (observations merged with `merged(with:)`), sorted by
    /// purchase date then id: the same set whatever the order of `facts`.
    ///
    /// Facts of different environments are kept apart even if their ids collide.
    public static func coalesced(_ facts: [TransactionFact]) -> [TransactionFact] {
        var byKey: [String: TransactionFact] = [:]
        for fact in facts {
            let key = fact.environment.rawValue + "/" + fact.transactionID
            byKey[key] = byKey[key].map { $0.merged(with: fact) } ?? fact
        }
        return byKey.values.sorted {
            ($0.purchaseDate, $0.transactionID, $0.environment.rawValue)
                < ($1.purchaseDate, $1.transactionID, $1.environment.rawValue)
        }
    }

    /// Orders periods: by expiry, then purchase date, then transaction id (a total order once
    /// facts are coalesced, so "newest" never depends on input order).
    static func isOlderPeriod(_ a: TransactionFact, than b: TransactionFact) -> Bool {
        let expiresA = a.expiresDate ?? .distantPast
        let expiresB = b.expiresDate ?? .distantPast
        if expiresA != expiresB { return expiresA < expiresB }
        if a.purchaseDate != b.purchaseDate { return a.purchaseDate < b.purchaseDate }
        return a.transactionID < b.transactionID
    }
}
