import Store
import Subscriptions

/// The purchases behind irregular activity (`IrregularActivityQueries` in production).
public protocol IrregularActivitySource: Sendable {
    /// Each user linked to purchases of at least `minimum` Apple accounts (by a cheap lower
    /// bound), with those purchases.
    func purchasesOfUsers(linkedToAtLeast minimum: Int) async throws -> [String: [AppleAccounts.Purchase]]
    /// Purchases linked to at least `minimum` app users.
    func purchases(linkedToAtLeast minimum: Int) async throws -> [IrregularActivityQueries.SharedPurchase]
}
