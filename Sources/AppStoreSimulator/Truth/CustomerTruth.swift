import Foundation

/// What subscriptiond should say about one customer at one moment.
public struct CustomerTruth: Sendable, Hashable {
    /// The customer id, to use as `app_user_id`.
    public var appUserID: String
    /// The app.
    public var bundleID: String
    /// `Production` or `Sandbox`.
    public var environment: SimEnvironment
    /// The lifecycle the customer lived.
    public var scenario: ScenarioKind
    /// The receipt to post to `POST /v1/receipts` to link the customer.
    public var receiptData: String
    /// One entry per subscription group the customer subscribed in.
    public var subscriptions: [SubscriptionTruth]
    /// Intro-offer eligibility of every product the app sells, under Apple's rule.
    public var eligibility: [String: Eligibility]
    /// The app's account token for the customer (v2 transactions carry it), to query
    /// `GET /v1/subscribers/{token}`; `nil` when the app set none.
    public var appAccountToken: String?
    /// The notification version the customer's app receives (the truth does not depend on it).
    public var notificationVersion: NotificationVersion = .v1
    /// Every entitlement of the catalog, in catalog order, under the entitlement rule.
    public var entitlements: [EntitlementTruth] = []
    /// Every purchase of a consumable, non-consumable or non-renewing product, oldest first.
    public var purchases: [SimPurchase] = []
    /// The version of the app the customer first downloaded (the receipt's and AppTransaction's).
    public var originalApplicationVersion = "1.0"
    /// The StoreKit 2 AppTransaction to post to `POST /v1/app-transactions`, for v2 customers
    /// of an app with a grandfather rule; else `nil`.
    public var signedAppTransaction: String?

    /// The entitlement with `id`.
    public func entitlement(_ id: String) -> EntitlementTruth? {
        entitlements.first { $0.id == id }
    }

    /// `pro:non_consumable`, … for the active entitlements, in catalog order.
    public var activeEntitlements: [String] {
        entitlements.compactMap(\.summary)
    }

    /// Groups where the customer is entitled now, sorted.
    public var entitledGroups: [String] {
        subscriptions.filter(\.entitled).map(\.subscriptionGroupID).sorted()
    }

    /// DESIGN.md's subscriber JSON (subscriptions, entitled groups, entitlements, purchases)
    /// plus the eligibility answer and what the test needs.
    var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("app_user_id", .string(appUserID)),
            ("bundle_id", .string(bundleID)),
            ("environment", .string(environment.rawValue)),
            ("scenario", .string(scenario.rawValue)),
            ("receipt_data", .string(receiptData)),
            ("subscriptions", .array(subscriptions.map(\.json))),
            ("entitled_groups", .array(entitledGroups.map(JSONValue.string))),
            ("eligibility", .object(eligibility.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value.rawValue)) })),
            ("notifications_version", .string(notificationVersion.rawValue)),
            ("entitlements", .object(entitlements.map { ($0.id, $0.json) })),
            ("purchases", .array(purchases.map(\.truthJSON))),
            ("original_application_version", .string(originalApplicationVersion)),
        ]
        if let signedAppTransaction {
            members.append(("signed_app_transaction", .string(signedAppTransaction)))
        }
        if let appAccountToken {
            members.append(("app_account_token", .string(appAccountToken)))
        }
        return .object(members)
    }
}
