import AppStore
import Foundation
import Subscriptions

/// The catalog of DESIGN.md's entitlement example: `pro` granted by a monthly subscription, a
/// lifetime unlock and a 30-day pass; a 14-day trial of `pro`; a consumable granting nothing;
/// `paid_pro` for the grandfathered customers of the paid app.
enum EntitlementFixture {
    static let app = "com.example.app"
    static let paidApp = "com.example.paidapp"
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    static let catalog = ProductCatalog(
        products: [
            Product(
                productID: "pro.monthly", bundleID: app, type: .autoRenewable, subscriptionGroupID: "20500000",
                period: ISO8601Duration("P1M")),
            Product(productID: "pro.lifetime", bundleID: app, type: .nonConsumable),
            Product(productID: "pass.30days", bundleID: app, type: .nonRenewing, period: ISO8601Duration("P30D")),
            Product(productID: "pro.trial", bundleID: app, type: .nonConsumable, trialOf: "pro", trialPeriod: ISO8601Duration("P14D")),
            Product(productID: "coins.100", bundleID: app, type: .consumable),
        ],
        entitlements: [
            Entitlement(id: "pro", productIDs: ["pro.monthly", "pro.lifetime", "pass.30days"]),
            Entitlement(id: "paid_pro", productIDs: []),
        ])

    static let policies = EntitlementPolicies([
        paidApp: EntitlementPolicy(grandfather: .init(beforeVersion: DottedVersion("2.0")!, entitlement: "paid_pro"))
    ])

    static func days(_ count: Double) -> TimeInterval { count * 86_400 }

    /// A one-time purchase `daysAgo` days before `now`.
    static func purchase(
        _ productID: String, id: String, daysAgo: Double, environment: AppStoreEnvironment = .production,
        refundedDaysAgo: Double? = nil, revocationType: String? = nil
    ) -> TransactionFact {
        TransactionFact(
            transactionID: id, originalTransactionID: id, productID: productID, bundleID: app, environment: environment,
            purchaseDate: now - days(daysAgo), cancellationDate: refundedDaysAgo.map { now - days($0) },
            cancellationReason: refundedDaysAgo == nil ? nil : "0", source: .v2, revocationType: revocationType)
    }

    /// A monthly subscription period ending `endsInDays` from `now`.
    static func subscription(endsInDays: Double, environment: AppStoreEnvironment = .production) -> SubscriptionSnapshot? {
        let fact = TransactionFact(
            transactionID: "sub-1", originalTransactionID: "sub-1", productID: "pro.monthly", bundleID: app, environment: environment,
            subscriptionGroupID: "20500000", purchaseDate: now - days(30 - endsInDays), expiresDate: now + days(endsInDays))
        return SubscriptionStatusRule.snapshot(originalTransactionID: "sub-1", transactions: [fact], renewal: nil, at: now)
    }

    static func entitlements(
        _ holdings: CustomerHoldings, at date: Date = now, policies: EntitlementPolicies = policies
    ) -> [String: EntitlementState] {
        EntitlementRule.entitlements(of: holdings, catalog: catalog, policy: policies.policy(for:), at: date)
    }
}
