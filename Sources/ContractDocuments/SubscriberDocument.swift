import AppStore
import Foundation
import Store
import Subscriptions

/// The contract's subscriber JSON: `{"app_user_id", "apple_accounts", "subscriptions": [...],
/// "entitled_groups": [...], "entitlements": {...}, "purchases": [...]}`.
public struct SubscriberDocument: Sendable {
    let appUserID: String
    /// The user's subscriptions.
    public let views: [SubscriptionView]
    /// Every entitlement of the catalog, by id.
    public let entitlements: [String: EntitlementState]
    /// When a source of those entitlements next ends (a grant, a pass chain, a trial, a
    /// subscription period); nil when none lies ahead.
    public let entitlementsNextChange: Date?
    /// The user's one-time purchases, oldest first.
    public let purchases: [PurchaseSummary]
    /// The one-time purchases' prices and estimated proceeds, by environment and transaction
    /// id (unpriced ones absent).
    let purchaseMoney: [String: PurchaseMoney]
    /// The subscriptions as the document shows them, with the money of their latest periods.
    public let subscriptions: [SubscriptionDocument]
    /// The subscription groups in which the user is entitled now (counted as entitlements
    /// are: a Sandbox subscription of an app that ignores Sandbox, or one of a product another
    /// app sells, does not count), sorted.
    public let entitledGroups: [String]
    /// How many Apple accounts at least fed the user's purchases (``AppleAccounts``).
    public let appleAccounts: Int

    /// The document of a user as read, under `catalog` and the apps' `policies`, at `now`;
    /// purchases priced and their proceeds estimated under `pricing`.
    public init(
        appUserID: String, read: SubscriberRead, catalog: ProductCatalog, policies: EntitlementPolicies,
        pricing: PurchasePricing = PurchasePricing(), now: Date
    ) {
        self.appUserID = appUserID
        self.views = read.views
        self.subscriptions = read.views.map { SubscriptionDocument($0, includeTransactions: false, pricing: pricing, catalog: catalog) }
        let evaluation = EntitlementRule.evaluate(read.holdings, catalog: catalog, policy: policies.policy(for:), at: now)
        self.entitlements = evaluation.states
        self.entitlementsNextChange = evaluation.nextChange
        self.purchases = PurchaseSummary.purchases(of: read.holdings, catalog: catalog)
        var purchaseMoney: [String: PurchaseMoney] = [:]
        for purchase in purchases {
            guard let money = pricing.money(ofPurchase: purchase.fact, catalog: catalog) else { continue }
            purchaseMoney[Self.key(purchase.fact)] = money
        }
        self.purchaseMoney = purchaseMoney
        self.appleAccounts = read.appleAccounts
        self.entitledGroups = Array(
            Set(
                read.views.map(\.snapshot).filter { snapshot in
                    snapshot.entitled && policies.policy(for: snapshot.bundleID).counts(snapshot.environment)
                        && catalog.sells(snapshot.productID, in: snapshot.bundleID)
                }.compactMap(\.subscriptionGroupID))
        ).sorted()
    }

    /// The price and estimated proceeds of one of its one-time purchases; nil when unpriced.
    public func money(ofPurchase fact: TransactionFact) -> PurchaseMoney? {
        purchaseMoney[Self.key(fact)]
    }

    private static func key(_ fact: TransactionFact) -> String {
        "\(fact.environment.rawValue)|\(fact.transactionID)"
    }

    /// The entitlements read of the same user: `{"app_user_id", "entitlements"}`.
    public var entitlementsDocument: EntitlementsDocument {
        EntitlementsDocument(appUserID: appUserID, entitlements: entitlements)
    }
}

/// `GET /v1/subscribers/{app_user_id}/entitlements`: `{"app_user_id", "entitlements": {...}}`.
public struct EntitlementsDocument: Sendable {
    let appUserID: String
    let entitlements: [String: EntitlementState]
}

/// `{"eligibility": {"<product_id>": "eligible", ...}}`, and with `"sign": true`
/// `"signatures": {"<product_id>": "<compact JWS>"}`.
public struct EligibilityDocument: Sendable {
    /// Answer per product id.
    public let eligibility: [String: String]
    /// The introductory-offer eligibility JWS per product (nil: not asked for).
    public let signatures: [String: String]?

    /// Creates the document.
    public init(eligibility: [String: String], signatures: [String: String]? = nil) {
        self.eligibility = eligibility
        self.signatures = signatures
    }
}
