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
        attemptDate = wire.attemptDate.flatMap(Date.init(appleMilliseconds:))
        resultRaw = wire.sendAttemptResult
    }
}

/// What a renewal-date extension asks for: Apple's `extendByDays` (1–90), `extendReasonCode`
/// (0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage) and the
/// caller's `requestIdentifier`, which makes sending the same request again harmless.
public struct RenewalExtensionTerms: Sendable, Hashable {
    /// Days to add to the renewal date, 1 to 90.
    public let days: Int
    /// Apple's reason code, 0 to 3.
    public let reasonCode: Int
    /// The request's identifier; the same one is sent on every try.
    public let requestIdentifier: UUID

    /// The terms, or `.invalidRequest` when Apple would refuse them.
    public init(days: Int, reasonCode: Int, requestIdentifier: UUID) throws(AppStoreAPIError) {
        guard (1...90).contains(days) else { throw .invalidRequest(reason: "an extension is 1 to 90 days, not \(days)") }
        guard (0...3).contains(reasonCode) else { throw .invalidRequest(reason: "the extension reason code is 0 to 3, not \(reasonCode)") }
        self.days = days
        self.reasonCode = reasonCode
        self.requestIdentifier = requestIdentifier
    }
}

/// Extend a Subscription Renewal Date's answer.
public struct RenewalExtensionAnswer: Sendable, Hashable {
    /// The environment that knew the subscription.
    public let environment: AppStoreEnvironment
    /// Whether Apple extended it.
    public let succeeded: Bool
    /// The subscription's new expiry, when Apple names it.
    public let effectiveDate: Date?
    /// `webOrderLineItemId` of the extended period.
    public let webOrderLineItemID: String?
}

/// Get Status of Subscription Renewal Date Extensions: how far a mass extension is.
public struct MassExtensionStatus: Sendable, Hashable {
    /// Whether Apple has finished the request.
    public let complete: Bool
    /// When it finished.
    public let completeDate: Date?
    /// Subscriptions extended so far.
    public let succeededCount: Int?
    /// Subscriptions Apple could not extend.
    public let failedCount: Int?
}

extension Date {
    /// A date from Apple's milliseconds since 1970; nil outside years 1970…9999, so no
    /// answer can trap the conversion.
    init?(appleMilliseconds ms: Int64) {
        guard (0...253_402_300_799_999).contains(ms) else { return nil }
        self.init(timeIntervalSince1970: Double(ms) / 1000)
    }
}
