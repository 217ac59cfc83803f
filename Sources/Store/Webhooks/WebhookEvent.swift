import AppStore
import Foundation
import Subscriptions

/// What an outbound event reports (DESIGN.md, "Outbound webhooks" and "Lifecycle events"):
/// a lifecycle event's kind.
public typealias WebhookEventType = LifecycleEvent.Kind

/// Delivery state of an outbound event.
public enum WebhookEventState: String, Sendable, Codable, CaseIterable {
    /// Waiting for its first attempt (or replayed).
    case pending
    /// The receiver acknowledged it with a 2xx.
    case delivered
    /// An attempt failed; tried again at `next_attempt_at`.
    case retrying
    /// Given up (3 days of failures, or no webhook URL for its app); `webhooks replay` brings it back.
    case dead
}

/// One outbound event as stored: everything its body is rendered from.
public struct WebhookEvent: Sendable {
    /// Outbox row id (what `subscriptionctl webhooks show` takes).
    public let id: Int64
    /// The event id receivers dedupe by (`evt_…`), the same on every attempt.
    public let eventID: String
    /// What happened.
    public let type: WebhookEventType
    /// The app's bundle id.
    public let bundleID: String
    /// The subscription's or purchase's environment (an entitlement's: its source's, else Production).
    public let environment: AppStoreEnvironment
    /// The subscription's or purchase's key (nil for an entitlement's event, which is about a user).
    public let originalTransactionID: String?
    /// The app users linked to the subscription at the change (for `user_unlinked`, the users
    /// unlinked; for `entitlement_changed`, its user).
    public let appUserIDs: [String]
    /// The status before the change (nil when it did not move, and for a new subscription).
    public let previousStatus: SubscriptionStatus?
    /// The event's details: `reason`, `from`/`to` products, `access_continues`.
    public let detail: LifecycleEvent
    /// The subscription as it was right after the change (nil for a one-time purchase's event).
    public let subscription: SubscriptionView?
    /// The one-time purchase as it was right after the change (nil for a subscription's event).
    public let purchase: PurchaseSummary?
    /// The entitlement that began or ended, as it was right after (only `entitlement_changed`).
    public let entitlement: EntitlementChanges.Change?
    /// The AppTransaction of the Apple account an account-level event is about (only `consent_rescinded`).
    public let appTransactionID: String?
    /// When the change was committed (the event's `created_at`).
    public let createdAt: Date
    /// When its retry window began: its creation, or its latest replay (a replayed event gets
    /// the whole window again).
    public let retryWindowStart: Date
}

/// An event claimed by a delivery attempt.
public struct ClaimedWebhookEvent: Sendable {
    /// The event.
    public let event: WebhookEvent
    /// This attempt's number, starting at 1 (the fence for its outcome).
    public let attempt: Int
    /// When this attempt was claimed.
    public let claimedAt: Date
}
