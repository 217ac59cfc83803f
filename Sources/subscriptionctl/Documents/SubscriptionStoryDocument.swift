import AppStore
import ContractDocuments
import Foundation
import JSON
import Store
import Subscriptions

/// `subscription show --json`: the contract's subscription JSON with `transactions`, plus
/// `status_reason`, `renewal_info` (object or null), `notifications`, `status_events`
/// and the last revalidation.
struct SubscriptionStoryDocument: Encodable {
    let story: SubscriptionStory
    /// The contract's document of the story's subscription.
    let document: SubscriptionDocument
    let now: Date

    enum CodingKeys: String, CodingKey {
        case statusReason = "status_reason", renewalInfo = "renewal_info", notifications
        case statusEvents = "status_events", revalidatedAt = "revalidated_at", revalidationOutcome = "revalidation_outcome"
    }

    func encode(to encoder: any Encoder) throws {
        // The contract document's members, as it writes them; ours go into the same object.
        var contract = encoder.container(keyedBy: MemberKey.self)
        for (key, value) in document.jsonValue.objectMembers ?? [:] {
            try contract.encode(value, forKey: MemberKey(key))
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(StatusExplanation.sentence(story, time: { TimeText.withAge($0, now: now) }), forKey: .statusReason)
        try container.encode(story.view.renewal.map(RenewalDocument.init), forKey: .renewalInfo)
        try container.encode(story.notifications.map(NotificationDocument.init), forKey: .notifications)
        try container.encode(story.statusEvents.map(StatusEventDocument.init), forKey: .statusEvents)
        try container.encode(story.revalidatedAt, forKey: .revalidatedAt)
        try container.encode(story.revalidationOutcome, forKey: .revalidationOutcome)
    }
}

/// The stored renewal info of a subscription.
struct RenewalDocument: Encodable {
    let fact: RenewalFact

    enum CodingKeys: String, CodingKey {
        case productID = "product_id", autoRenewProductID = "auto_renew_product_id", autoRenewStatus = "auto_renew_status"
        case expirationIntent = "expiration_intent", isInBillingRetryPeriod = "is_in_billing_retry_period"
        case gracePeriodExpiresAt = "grace_period_expires_at", priceConsentStatus = "price_consent_status"
        case observedAt = "observed_at"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fact.productID, forKey: .productID)
        try container.encode(fact.autoRenewProductID, forKey: .autoRenewProductID)
        try container.encode(fact.autoRenewStatus, forKey: .autoRenewStatus)
        try container.encode(fact.expirationIntent?.rawValue, forKey: .expirationIntent)
        try container.encode(fact.isInBillingRetryPeriod, forKey: .isInBillingRetryPeriod)
        try container.encode(fact.gracePeriodExpiresDate, forKey: .gracePeriodExpiresAt)
        try container.encode(fact.priceConsentStatus, forKey: .priceConsentStatus)
        try container.encode(fact.observedAt, forKey: .observedAt)
    }
}

/// One status change.
struct StatusEventDocument: Encodable {
    let event: StatusEvent

    enum CodingKeys: String, CodingKey {
        case oldStatus = "old_status", newStatus = "new_status", notificationID = "notification_id", occurredAt = "occurred_at"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(event.oldStatus, forKey: .oldStatus)
        try container.encode(event.newStatus, forKey: .newStatus)
        try container.encode(event.notificationID, forKey: .notificationID)
        try container.encode(event.occurredAt, forKey: .occurredAt)
    }
}

/// Any member name, for members copied from another document.
private struct MemberKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
