import AppStore
import AppStoreSignature
import Foundation

/// Get All Subscription Statuses, with every signed item verified.
public struct SubscriptionStatusesAnswer: Sendable, Hashable {
    /// The environment that knew the transaction.
    public let environment: AppStoreEnvironment
    /// One entry per subscription group.
    public let groups: [SubscriptionGroupStatus]
}

/// The subscriptions of one group in a status answer.
public struct SubscriptionGroupStatus: Sendable, Hashable {
    /// `subscriptionGroupIdentifier`.
    public let subscriptionGroupIdentifier: String?
    /// `lastTransactions`: the latest transaction of each original transaction in the group.
    public let lastTransactions: [SubscriptionLastTransaction]
}

/// One `lastTransactions` entry, its transaction and renewal info verified.
public struct SubscriptionLastTransaction: Sendable, Hashable {
    /// `originalTransactionId`.
    public let originalTransactionID: String
    /// `status` exactly as sent (1 active … 5 revoked).
    public let statusRaw: Int?
    /// The verified `signedTransactionInfo`.
    public let transaction: JWSTransactionPayload
    /// The verified `signedRenewalInfo`, when sent.
    public let renewalInfo: JWSRenewalInfoPayload?

    /// `status` as a known value, `nil` for one Apple added later.
    public var status: SubscriptionStatusV2? { statusRaw.flatMap(SubscriptionStatusV2.init(rawValue:)) }
}

/// One page of Get Transaction History v2.
public struct TransactionHistoryPage: Sendable, Hashable {
    /// The environment that knew the transaction.
    public let environment: AppStoreEnvironment
    /// The page's verified transactions.
    public let transactions: [JWSTransactionPayload]
    /// The revision to ask for the next page with.
    public let revision: String?
    /// Whether another page follows.
    public let hasMore: Bool
}

/// Look Up Order ID, verified: the purchases of the order a customer quotes from Apple's
/// email receipt (production only: sandbox purchases have no order ids).
public enum OrderLookupAnswer: Sendable, Hashable {
    /// Apple knows the order: its transactions, each verified.
    case valid([JWSTransactionPayload])
    /// Apple knows no such order for this app (`status` 1).
    case invalid
}

/// Get Transaction Info, verified.
public struct TransactionInfoAnswer: Sendable, Hashable {
    /// The environment that knew the transaction.
    public let environment: AppStoreEnvironment
    /// The verified transaction.
    public let transaction: JWSTransactionPayload
}

/// The answer of Get App Transaction Info.
public struct AppTransactionInfoAnswer: Sendable, Hashable {
    /// The environment that knew the customer.
    public let environment: AppStoreEnvironment
    /// The verified AppTransaction.
    public let appTransaction: AppTransactionPayload
}

/// One delivery attempt of a notification, as Apple reports it.
public struct NotificationSendAttempt: Sendable, Hashable {
    /// `attemptDate`.
    public let attemptDate: Date?
    /// `sendAttemptResult` exactly as sent (`SUCCESS`, `TIMED_OUT`, `NO_RESPONSE`, …).
    public let resultRaw: String?
}

/// One notification of the history: the raw payload for the inbox and its verified contents.
public struct NotificationHistoryItem: Sendable, Hashable {
    /// `signedPayload` exactly as Apple sent it, to store in the inbox.
    public let signedPayload: String
    /// The verified notification.
    public let notification: VerifiedNotificationV2
    /// `sendAttempts`.
    public let sendAttempts: [NotificationSendAttempt]
}

/// One page of Get Notification History.
public struct NotificationHistoryPage: Sendable, Hashable {
    /// The page's notifications.
    public let notifications: [NotificationHistoryItem]
    /// The token to ask for the next page with; store it to resume.
    public let paginationToken: String?
    /// Whether another page follows.
    public let hasMore: Bool
}

/// Get Test Notification Status: the test notification and its delivery attempts.
public struct TestNotificationStatus: Sendable, Hashable {
    /// `signedPayload` exactly as Apple sent it.
    public let signedPayload: String
    /// The verified notification.
    public let notification: VerifiedNotificationV2
    /// `sendAttempts`.
    public let sendAttempts: [NotificationSendAttempt]
}

extension NotificationSendAttempt {
    init(_ wire: AppStoreAPIWire.SendAttemptItem) {
        attemptDate = wire.attemptDate.flatMap { ms in
            (0...253_402_300_799_999).contains(ms) ? Date(timeIntervalSince1970: Double(ms) / 1000) : nil
        }
        resultRaw = wire.sendAttemptResult
    }
}
