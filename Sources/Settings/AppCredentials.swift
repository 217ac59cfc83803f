import AppStoreSignature
import Foundation
import Subscriptions

/// One app whose notifications we accept: its bundle id, and what authenticates it — a
/// shared secret (version 1), its numeric Apple ID (version 2 in Production), or both.
public struct AppCredentials: Sendable {
    /// The app's bundle identifier (`bid` in v1 notifications, `bundleId` in v2).
    public let bundleID: String
    /// The app-specific shared secret (`password` in v1 notifications and verifyReceipt
    /// requests); nil for an app that only sends version 2.
    public let sharedSecret: Secret?
    /// The app's Apple ID (`appAppleId`), required to accept Production v2 notifications.
    public let appAppleID: String?
    /// Where its status-change events go (nil: no webhook).
    public let webhook: WebhookTarget?
    /// Its App Store Server API key (nil: v2 works from signed payloads alone).
    public let apiKey: AppStoreAPIKey?
    /// Its `grandfather` rule and `sandbox_entitlement`.
    public let entitlementPolicy: EntitlementPolicy
    /// Who owns a purchase several of its users prove (`link_policy`).
    public let linkPolicy: LinkPolicy
    /// The event types its webhook receives (`webhook_event_types`; nil: every type).
    public let webhookEventTypes: Set<LifecycleEvent.Kind>?

    /// The event types written for it: none without a webhook URL (they would only pile up
    /// undeliverable), else its `webhook_event_types` (every type when absent).
    public var webhookEventKinds: Set<LifecycleEvent.Kind> {
        webhook == nil ? [] : webhookEventTypes ?? Set(LifecycleEvent.Kind.allCases)
    }
    /// How it answers CONSUMPTION_REQUEST (`consumption`; nil: not answered).
    public let consumptionPolicy: ConsumptionPolicy?
    /// The StoreKit configuration's certificate its Xcode test purchases are signed with
    /// (`xcode_certificate_file`; nil: they are refused).
    public let xcodeCertificate: XcodeTransactionCertificate?
    /// What its Get Retention Message endpoint answers (`retention`; none: Apple's default message).
    public let retentionRules: RetentionRules
    /// Whether this server calls Finish Transaction for its one-time purchases once they are
    /// applied (a consumable once the app's backend confirms delivery) (`finish_transactions`).
    public let finishesTransactions: Bool

    /// Creates credentials for one app.
    public init(
        bundleID: String, sharedSecret: Secret?, appAppleID: String? = nil, webhook: WebhookTarget? = nil, apiKey: AppStoreAPIKey? = nil,
        entitlementPolicy: EntitlementPolicy = .standard, linkPolicy: LinkPolicy = .transfer,
        webhookEventTypes: Set<LifecycleEvent.Kind>? = nil, consumptionPolicy: ConsumptionPolicy? = nil,
        xcodeCertificate: XcodeTransactionCertificate? = nil, retentionRules: RetentionRules = .none, finishesTransactions: Bool = false
    ) {
        self.bundleID = bundleID
        self.sharedSecret = sharedSecret
        self.appAppleID = appAppleID
        self.webhook = webhook
        self.apiKey = apiKey
        self.entitlementPolicy = entitlementPolicy
        self.linkPolicy = linkPolicy
        self.webhookEventTypes = webhookEventTypes
        self.consumptionPolicy = consumptionPolicy
        self.xcodeCertificate = xcodeCertificate
        self.retentionRules = retentionRules
        self.finishesTransactions = finishesTransactions
    }

    /// The same app with another webhook target.
    func with(webhook: WebhookTarget?) -> AppCredentials {
        AppCredentials(
            bundleID: bundleID, sharedSecret: sharedSecret, appAppleID: appAppleID, webhook: webhook, apiKey: apiKey,
            entitlementPolicy: entitlementPolicy, linkPolicy: linkPolicy, webhookEventTypes: webhookEventTypes,
            consumptionPolicy: consumptionPolicy, xcodeCertificate: xcodeCertificate, retentionRules: retentionRules,
            finishesTransactions: finishesTransactions)
    }
}

/// The configured apps, looked up by bundle id.
public struct AppRegistry: Sendable {
    private let appsByBundleID: [String: AppCredentials]
    /// Every app's link policy (read for every batch of facts applied).
    public let linkPolicies: LinkPolicies
    /// Which events are written for each app: none for an app without a webhook URL (they
    /// would only pile up undeliverable), else its `webhook_event_types` (every type when
    /// absent). Read for every batch of facts applied.
    public let webhookEvents: WebhookEventSelection

    /// Creates a registry; bundle ids must be unique.
    public init(_ apps: [AppCredentials]) {
        let appsByBundleID = Dictionary(apps.map { ($0.bundleID, $0) }, uniquingKeysWith: { first, _ in first })
        self.appsByBundleID = appsByBundleID
        linkPolicies = LinkPolicies(appsByBundleID.mapValues(\.linkPolicy))
        webhookEvents = WebhookEventSelection(appsByBundleID.mapValues(\.webhookEventKinds))
    }

    /// The app with this bundle id, if configured.
    public func app(bundleID: String) -> AppCredentials? { appsByBundleID[bundleID] }

    /// Every configured bundle id, sorted.
    public var bundleIDs: [String] { appsByBundleID.keys.sorted() }

    /// Whether `bundleID` grandfathers customers by their original application version (then
    /// linking a purchase also reads that version).
    public func grandfathers(bundleID: String) -> Bool {
        appsByBundleID[bundleID]?.entitlementPolicy.grandfather != nil
    }

    /// Every app's entitlement policy.
    public var entitlementPolicies: EntitlementPolicies {
        EntitlementPolicies(appsByBundleID.mapValues(\.entitlementPolicy))
    }

    /// True when no app is configured.
    public var isEmpty: Bool { appsByBundleID.isEmpty }
}
