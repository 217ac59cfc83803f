/// Everything one customer owns at one moment.
public struct CustomerState: Sendable, Hashable {
    /// One subscription per group the customer ever subscribed in.
    public var subscriptions: [SimSubscription] = []
    /// Every purchase of a consumable, non-consumable or non-renewing product, oldest first.
    public var purchases: [SimPurchase] = []

    /// A customer who owns `subscriptions` and `purchases` (by default nothing yet).
    public init(subscriptions: [SimSubscription] = [], purchases: [SimPurchase] = []) {
        self.subscriptions = subscriptions
        self.purchases = purchases
    }

    /// Every transaction of every subscription.
    public var transactions: [SimTransaction] {
        subscriptions.flatMap(\.transactions)
    }

    /// The subscription of `groupID`, if the customer ever subscribed there.
    public func subscription(inGroup groupID: String) -> SimSubscription? {
        subscriptions.first { $0.groupID == groupID }
    }

    /// The purchase with `transactionID`.
    public func purchase(_ transactionID: String) -> SimPurchase? {
        purchases.first { $0.transactionID == transactionID }
    }

    /// The index of the subscription of `groupID`.
    func index(ofGroup groupID: String) -> Int? {
        subscriptions.firstIndex { $0.groupID == groupID }
    }
}
