import Foundation

/// One subscription (one original transaction): its periods and its renewal info.
public struct SimSubscription: Sendable, Hashable {
    /// The subscription group; Apple keeps one original transaction per customer and group.
    public var groupID: String
    /// Every period, oldest first.
    public var transactions: [SimTransaction]
    /// The renewal info.
    public var renewal: SimRenewalInfo

    /// A subscription of `groupID` with its periods (oldest first) and renewal info.
    public init(groupID: String, transactions: [SimTransaction], renewal: SimRenewalInfo) {
        self.groupID = groupID
        self.transactions = transactions
        self.renewal = renewal
    }

    /// The subscription's key.
    public var originalTransactionID: String {
        renewal.originalTransactionID
    }

    /// The newest period.
    public var latest: SimTransaction {
        transactions[transactions.count - 1]
    }
}
