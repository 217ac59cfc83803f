/// Everything one customer owns at one moment.
public struct CustomerState: Sendable, Hashable {
    /// One subscription per group the customer ever subscribed in.
    public var subscriptions: [SimSubscription] = []

    /// A customer who owns nothing yet.
    public init(subscriptions: [SimSubscription] = []) {
        self.subscriptions = subscriptions
    }

    /// Every transaction of every subscription.
    public var transactions: [SimTransaction] {
        subscriptions.flatMap(\.transactions)
    }

    /// The subscription of `groupID`, if the customer ever subscribed there.
    public func subscription(inGroup groupID: String) -> SimSubscription? {
        subscriptions.first { $0.groupID == groupID }
    }

    /// The index of the subscription of `groupID`.
    func index(ofGroup groupID: String) -> Int? {
        subscriptions.firstIndex { $0.groupID == groupID }
    }
}
