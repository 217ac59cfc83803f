import AppStore
import Foundation

/// One answer of the Get Retention Message endpoint, as `retention_answers` keeps it.
public struct RetentionAnswerRecord: Sendable, Equatable {
    /// What the customer was shown: a rule's action, or Apple's default message.
    public enum Answer: String, Sendable, Equatable {
        case message
        case alternateProduct = "alternate_product"
        case promotionalOffer = "promotional_offer"
        case appleDefault = "default"
    }

    /// Why.
    public enum Reason: String, Sendable, Equatable {
        /// A rule matched (`ruleIndex` says which).
        case matched
        /// The app has rules, and none matched (or it has none).
        case noMatch = "no_match"
        /// The request named a subscription this server has no facts of.
        case unknownSubscription = "unknown_subscription"
        /// The answer was not ready within the endpoint's deadline.
        case deadline
        /// Reading the facts or signing failed.
        case failed
    }

    public let requestIdentifier: String
    public let answeredAt: Date
    public let environment: AppStoreEnvironment
    public let bundleID: String?
    public let originalTransactionID: String
    public let productID: String?
    public let userLocale: String?
    public let answer: Answer
    public let reason: Reason
    public let ruleIndex: Int?
    public let messageIdentifier: UUID?
    public let offeredProductID: String?
    public let offerID: String?

    public init(
        requestIdentifier: String, answeredAt: Date, environment: AppStoreEnvironment, bundleID: String?, originalTransactionID: String,
        productID: String?, userLocale: String?, answer: Answer, reason: Reason, ruleIndex: Int?, messageIdentifier: UUID?,
        offeredProductID: String?, offerID: String?
    ) {
        self.requestIdentifier = requestIdentifier
        self.answeredAt = answeredAt
        self.environment = environment
        self.bundleID = bundleID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.userLocale = userLocale
        self.answer = answer
        self.reason = reason
        self.ruleIndex = ruleIndex
        self.messageIdentifier = messageIdentifier
        self.offeredProductID = offeredProductID
        self.offerID = offerID
    }
}
