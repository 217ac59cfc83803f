import Store
import Subscriptions

/// `subscriptionctl suspicious`: the 2017 seed's "irregular activity" — app users fed by
/// many Apple accounts (counted by ``AppleAccounts``, never by an account's name) and
/// purchases linked to many app users.
public struct IrregularActivity: Sendable {
    /// An app user fed by several Apple accounts.
    public struct User: Sendable, Equatable {
        public let appUserID: String
        public let appleAccounts: Int
        public let purchases: Int
    }

    /// What was found at one threshold.
    public struct Report: Sendable {
        public let minimum: Int
        /// Users fed by at least `minimum` Apple accounts, most accounts first.
        public let users: [User]
        /// Purchases linked to at least `minimum` app users, most users first.
        public let purchases: [IrregularActivityQueries.SharedPurchase]
    }

    private let queries: any IrregularActivitySource

    /// Reports from what `queries` find.
    public init(queries: any IrregularActivitySource) {
        self.queries = queries
    }

    /// The report at `minimum` (2 or more).
    public func report(minimum: Int) async throws -> Report {
        guard minimum >= 2 else { throw UseCaseError.malformed("the threshold must be 2 or more") }
        let users = try await queries.purchasesOfUsers(linkedToAtLeast: minimum).compactMap { user, purchases -> User? in
            let accounts = AppleAccounts.count(purchases)
            return accounts >= minimum ? User(appUserID: user, appleAccounts: accounts, purchases: purchases.count) : nil
        }.sorted { ($0.appleAccounts, $1.appUserID) > ($1.appleAccounts, $0.appUserID) }
        return Report(minimum: minimum, users: users, purchases: try await queries.purchases(linkedToAtLeast: minimum))
    }
}
