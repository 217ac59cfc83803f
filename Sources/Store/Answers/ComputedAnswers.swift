import Foundation
import Subscriptions

/// A `GET /v1/subscriptions/{id}` body computed from facts read with `stamp`.
public struct SubscriptionAnswer: Sendable {
    /// The key.
    public let originalTransactionID: String
    /// The response body.
    public let body: String
    /// What the facts were read with.
    public let stamp: AnswerStamp
    /// When the body may change with time alone; nil when it cannot.
    public let validUntil: Date?

    /// Creates the answer.
    public init(originalTransactionID: String, body: String, stamp: AnswerStamp, validUntil: Date?) {
        self.originalTransactionID = originalTransactionID
        self.body = body
        self.stamp = stamp
        self.validUntil = validUntil
    }
}

/// A `GET /v1/subscribers/{id}` body, its `…/entitlements` body and the user's group usage,
/// computed from facts read with `stamp`.
public struct SubscriberAnswer: Sendable {
    /// The key.
    public let appUserID: String
    /// The response body.
    public let body: String
    /// The `GET /v1/subscribers/{id}/entitlements` response body.
    public let entitlementsBody: String
    /// What eligibility needs of the user's history.
    public let usage: GroupUsage
    /// What the facts were read with.
    public let stamp: AnswerStamp
    /// When the body or usage may change with time alone; nil when they cannot.
    public let validUntil: Date?

    /// Creates the answer.
    public init(appUserID: String, body: String, entitlementsBody: String, usage: GroupUsage, stamp: AnswerStamp, validUntil: Date?) {
        self.appUserID = appUserID
        self.body = body
        self.entitlementsBody = entitlementsBody
        self.usage = usage
        self.stamp = stamp
        self.validUntil = validUntil
    }
}
