import AppStore
import Foundation

/// What one customer has done in each subscription group, computed once per question so
/// that answering for many products costs one pass over the history.
public struct GroupUsage: Sendable, Equatable {
    /// A subscription group, or a lone product when no group is known for it.
    public enum Key: Hashable, Sendable {
        case group(String)
        case product(String)

        /// `group:<id>` or `product:<id>`: how a key is stored.
        public var text: String {
            switch self {
            case .group(let id): "group:" + id
            case .product(let id): "product:" + id
            }
        }

        /// The key a stored text names; nil for any other text.
        public init?(text: String) {
            if text.hasPrefix("group:") {
                self = .group(String(text.dropFirst("group:".count)))
            } else if text.hasPrefix("product:") {
                self = .product(String(text.dropFirst("product:".count)))
            } else {
                return nil
            }
        }
    }

    /// Groups where a transaction had a free trial or an intro price.
    public private(set) var offerUsed: Set<Key> = []
    /// Groups with any transaction at all (the strict policy's test).
    public private(set) var purchased: Set<Key> = []
    /// Groups where a subscription is `active` or in `grace_period` at the time asked.
    public private(set) var entitled: Set<Key> = []

    /// Summarises `history` at `now`, with the catalog's groups.
    public init(history: CustomerHistory, catalog: ProductCatalog, now: Date) {
        self.init(history: history, catalogGroup: { catalog.product($0)?.subscriptionGroupID }, now: now)
    }

    /// Summarises `history` at `now`; `catalogGroup` is the catalog's group of a product, if it lists one.
    ///
    /// Refunded, revoked and family-shared transactions count like any other: Apple documents
    /// no exception, and showing an offer Apple then refuses to apply is the worse mistake.
    public init(history: CustomerHistory, catalogGroup: (String) -> String?, now: Date) {
        for fact in history.transactions {
            let key = Self.key(productID: fact.productID, reportedGroup: fact.subscriptionGroupID, catalogGroup: catalogGroup)
            purchased.insert(key)
            if fact.isTrialPeriod || fact.isInIntroOfferPeriod { offerUsed.insert(key) }
        }
        for snapshot in Self.snapshots(history, at: now) where snapshot.entitled {
            entitled.insert(
                Self.key(productID: snapshot.productID, reportedGroup: snapshot.subscriptionGroupID, catalogGroup: catalogGroup))
        }
    }

    /// A customer who never bought anything.
    public static let none = GroupUsage(offerUsed: [], purchased: [], entitled: [])

    /// A summary stored earlier.
    public init(offerUsed: Set<Key>, purchased: Set<Key>, entitled: Set<Key>) {
        self.offerUsed = offerUsed
        self.purchased = purchased
        self.entitled = entitled
    }

    /// The group a product belongs to: the catalog's word first, since it is what the app
    /// sells today; else the group Apple reported on the transaction (`subscription_group_identifier`).
    static func key(productID: String, reportedGroup: String?, catalogGroup: (String) -> String?) -> Key {
        if let group = catalogGroup(productID) ?? reportedGroup { return .group(group) }
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
