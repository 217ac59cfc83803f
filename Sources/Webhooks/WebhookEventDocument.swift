import ContractDocuments
import Foundation
import Store
import Subscriptions

/// The body of one webhook POST (DESIGN.md, "Outbound webhooks"): id, type, created_at,
/// app_user_ids, previous_status, the event's details where it has them (`reason`, `from`,
/// `to`, `access_continues`) and the contract's subscription JSON as it was at the change —
/// or, for a one-time purchase's event, its purchase JSON (as the subscriber JSON's `purchases`);
/// for `entitlement_changed`, `entitlement` (its id), `active` and `entitlements` holding that
/// one entitlement's state (as the subscriber JSON's `entitlements`); for `consent_rescinded`,
/// `app_transaction_id` (the Apple account's AppTransaction).
public struct WebhookEventDocument: Encodable, Sendable {
    let event: WebhookEvent

    /// Wraps a stored event.
    public init(_ event: WebhookEvent) {
        self.event = event
    }

    enum CodingKeys: String, CodingKey {
        case id, type, createdAt = "created_at", appUserIDs = "app_user_ids", previousStatus = "previous_status", subscription
        case reason, from, to, accessContinues = "access_continues", purchase, entitlement, active, entitlements
        case appTransactionID = "app_transaction_id"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(event.eventID, forKey: .id)
        try container.encode(event.type.rawValue, forKey: .type)
        try container.encode(event.createdAt, forKey: .createdAt)
        try container.encode(event.appUserIDs, forKey: .appUserIDs)
        try container.encode(event.previousStatus?.rawValue, forKey: .previousStatus)
        try container.encodeIfPresent(event.detail.reason, forKey: .reason)
        try container.encodeIfPresent(event.detail.from, forKey: .from)
        try container.encodeIfPresent(event.detail.to, forKey: .to)
        try container.encodeIfPresent(event.detail.accessContinues, forKey: .accessContinues)
        if let subscription = event.subscription {
            try container.encode(SubscriptionDocument(subscription, includeTransactions: false).jsonValue, forKey: .subscription)
        }
        if let purchase = event.purchase {
            try container.encode(PurchaseDocument(purchase: purchase).jsonValue, forKey: .purchase)
        }
        if let change = event.entitlement {
            try container.encode(change.entitlementID, forKey: .entitlement)
            try container.encode(change.state.active, forKey: .active)
            try container.encode(EntitlementMapDocument([change.entitlementID: change.state]).jsonValue, forKey: .entitlements)
        }
        try container.encodeIfPresent(event.appTransactionID, forKey: .appTransactionID)
    }

    /// The exact bytes sent: compact, keys sorted, so every attempt sends the same body.
    public static func body(of event: WebhookEvent) throws -> [UInt8] {
        Array(try ContractJSON.encode(WebhookEventDocument(event)))
    }
}
