import AppStore
import Foundation

/// What one customer has done in each subscription group, computed once per question so
/// that answering for many products costs one pass over the history.
struct GroupUsage: Sendable {
    /// A subscription group, or a lone product when no group is known for it.
    enum Key: Hashable, Sendable {
        case group(String)
        case product(String)
    }

    /// Groups where a transaction had a free trial or an intro price.
    var offerUsed: Set<Key> = []
    /// Groups with any transaction at all (the strict policy's test).
    var purchased: Set<Key> = []
    /// Groups where a subscription is `active` or in `grace_period` at the time asked.
    var entitled: Set<Key> = []

    /// Summarises `history` at `now`.
    ///
    /// Refunded, revoked and family-shared transactions count like any other: Apple documents
    /// no exception, and showing an offer Apple then refuses to apply is the worse mistake.
    init(history: CustomerHistory, catalog: ProductCatalog, now: Date) {
        for fact in history.transactions {
            let key = Self.key(productID: fact.productID, reportedGroup: fact.subscriptionGroupID, catalog: catalog)
            purchased.insert(key)
            if fact.isTrialPeriod || fact.isInIntroOfferPeriod { offerUsed.insert(key) }
        }
        for snapshot in Self.snapshots(history, at: now) where snapshot.entitled {
            entitled.insert(Self.key(productID: snapshot.productID, reportedGroup: snapshot.subscriptionGroupID, catalog: catalog))
        }
    }

    /// The group a product belongs to: the catalog's word first, since it is what the app
    /// sells today; else the group Apple reported on the transaction (`subscription_group_identifier`).
    static func key(productID: String, reportedGroup: String?, catalog: ProductCatalog) -> Key {
        if let group = catalog.product(productID)?.subscriptionGroupID ?? reportedGroup { return .group(group) }
        return .product(productID)
    }

    /// The status of every subscription in the history; environments are kept apart because
    /// sandbox and production ids may collide.
    private static func snapshots(_ history: CustomerHistory, at now: Date) -> [SubscriptionSnapshot] {
        func subscription(_ environment: AppStoreEnvironment, _ id: String) -> String { environment.rawValue + "/" + id }
        let transactions = Dictionary(grouping: history.transactions) { subscription($0.environment, $0.originalTransactionID) }
        let renewals = Dictionary(grouping: history.renewals) { subscription($0.environment, $0.originalTransactionID) }
        return transactions.compactMap { key, facts in
            SubscriptionStatusRule.snapshot(
                originalTransactionID: facts[0].originalTransactionID,
                transactions: facts,
                renewal: renewals[key].flatMap(RenewalFact.newest),
                at: now
            )
        }
    }
}
