import AppStore
import Foundation

/// "What may this customer use now?": every entitlement of the catalog, from every source
/// that can grant it (DESIGN.md, "Entitlements, purchases and ownership"; docs/entitlements.md).
///
/// Pure: the same holdings, catalog and policies at the same `now` give the same answer.
/// Sources:
/// - `subscription`: an auto-renewable subscription of a listed product, `active` (until its
///   `expires_at`) or in `grace_period` (until the grace period's end);
/// - `non_consumable`: a listed non-consumable, for good;
/// - `non_renewing`: listed non-renewing subscriptions, each for its product's `period` from
///   its purchase or from the end of the one before, whichever is later (they stack);
/// - `trial`: a product whose `trial_of` names the entitlement, for its `trial_period` from
///   its purchase date, measured by `now` (the server's clock), never the device's;
/// - `grandfathered`: the app's grandfather rule, for a user whose original application
///   version is lower than the line, for good;
/// - `grant`: an operator's grant until its end.
///
/// A refunded or revoked purchase grants nothing, whatever Apple's `revocationType` (a
/// prorated refund is a refund). A purchase or proof from Sandbox grants nothing when its
/// app's policy says `ignore`. A purchase made in one app of a product the catalog sells in
/// another grants nothing, whatever its environment. Of the sources granting an entitlement, the answer names the
/// one that lasts longest (for good beats any end), then the first in `EntitlementSource`
/// order, then the smallest product id.
public enum EntitlementRule {
    /// One source's claim on an entitlement.
    struct Claim: Comparable {
        let source: EntitlementSource
        let productID: String?
        let expiresAt: Date?
        let environment: AppStoreEnvironment?

        /// Orders claims best first: longer, then earlier source, then smaller product id.
        static func < (a: Claim, b: Claim) -> Bool {
            switch (a.expiresAt, b.expiresAt) {
            case (nil, _?): return true
            case (_?, nil): return false
            case (let x?, let y?) where x != y: return x > y
            default: break
            }
            if a.source != b.source { return a.source < b.source }
            return (a.productID ?? "") < (b.productID ?? "")
        }

        var state: EntitlementState {
            EntitlementState(active: true, source: source, productID: productID, expiresAt: expiresAt, environment: environment)
        }
    }

    /// Every entitlement of the catalog at one moment, and when that answer next changes.
    public struct Evaluation: Sendable, Equatable {
        /// Every entitlement of the catalog, by id.
        public let states: [String: EntitlementState]
        /// The first moment after the evaluation at which some source of the customer's
        /// entitlements ends (subscription status changes are `SubscriptionStatusRule.nextChange`'s);
        /// nil when none lies ahead.
        public let nextChange: Date?
    }

    /// Every entitlement of `catalog` for the customer at `now`, and when a source next ends,
    /// from one pass over the claims.
    public static func evaluate(
        _ holdings: CustomerHoldings, catalog: ProductCatalog, policy: (String) -> EntitlementPolicy, at now: Date
    ) -> Evaluation {
        var states: [String: EntitlementState] = [:]
        var nextChange: Date?
        for entitlement in catalog.entitlements {
            let claims = claims(for: entitlement, of: holdings, catalog: catalog, policy: policy)
            states[entitlement.id] = claims.filter { claim in claim.expiresAt.map { now < $0 } ?? true }.min()?.state ?? .inactive
            for end in claims.compactMap(\.expiresAt) where end > now {
                nextChange = min(nextChange ?? end, end)
            }
        }
        return Evaluation(states: states, nextChange: nextChange)
    }

    /// Every entitlement of `catalog` for the customer at `now`, by id.
    public static func entitlements(
        of holdings: CustomerHoldings, catalog: ProductCatalog, policy: (String) -> EntitlementPolicy, at now: Date
    ) -> [String: EntitlementState] {
        evaluate(holdings, catalog: catalog, policy: policy, at: now).states
    }

    /// The first moment after `now` at which some source of the customer's entitlements ends.
    public static func nextChange(
        after now: Date, of holdings: CustomerHoldings, catalog: ProductCatalog, policy: (String) -> EntitlementPolicy
    ) -> Date? {
        evaluate(holdings, catalog: catalog, policy: policy, at: now).nextChange
    }

    /// The end of each non-renewing purchase's own period (purchase date + the product's
    /// `period`), for the `purchases` list; nil for other purchases or unknown periods.
    public static func periodEnd(of purchase: TransactionFact, catalog: ProductCatalog) -> Date? {
        guard let product = catalog.product(purchase.productID) else { return nil }
        if product.type == .nonRenewing { return product.period?.added(to: purchase.purchaseDate) }
        if product.trialOf != nil { return product.trialPeriod?.added(to: purchase.purchaseDate) }
        return nil
    }

    /// Every claim on `entitlement`, current or not (the caller filters by time).
    static func claims(
        for entitlement: Entitlement, of holdings: CustomerHoldings, catalog: ProductCatalog, policy: (String) -> EntitlementPolicy
    ) -> [Claim] {
        let listed = Set(entitlement.productIDs)
        let purchases = holdings.oneTimePurchases.filter {
            !$0.isRevoked && policy($0.bundleID).counts($0.environment) && catalog.sells($0.productID, in: $0.bundleID)
        }
        var claims: [Claim] = []

        for subscription in holdings.subscriptions
        where listed.contains(subscription.productID) && subscription.entitled
            && policy(subscription.bundleID).counts(subscription.environment)
            && catalog.sells(subscription.productID, in: subscription.bundleID)
        {
            let end =
                subscription.status == .gracePeriod ? subscription.gracePeriodExpiresAt ?? subscription.expiresAt : subscription.expiresAt
            // An entitled subscription always has an end; one without is no claim.
            if let end {
                claims.append(
                    Claim(source: .subscription, productID: subscription.productID, expiresAt: end, environment: subscription.environment))
            }
        }

        for purchase in purchases {
            guard let product = catalog.product(purchase.productID) else { continue }
            if product.trialOf == entitlement.id, let end = product.trialPeriod?.added(to: purchase.purchaseDate) {
                claims.append(Claim(source: .trial, productID: product.productID, expiresAt: end, environment: purchase.environment))
            } else if product.trialOf == nil, product.type == .nonConsumable, listed.contains(product.productID) {
                claims.append(
                    Claim(source: .nonConsumable, productID: product.productID, expiresAt: nil, environment: purchase.environment))
            }
        }

        claims += stackedPasses(purchases.filter { listed.contains($0.productID) }, catalog: catalog)

        for version in holdings.versions {
            let rule = policy(version.bundleID)
            guard let grandfather = rule.grandfather, grandfather.entitlement == entitlement.id, rule.counts(version.environment),
                let first = DottedVersion(version.version), first < grandfather.beforeVersion
            else { continue }
            claims.append(Claim(source: .grandfathered, productID: nil, expiresAt: nil, environment: version.environment))
        }

        for grant in holdings.grants where grant.entitlement == entitlement.id && grant.revokedAt == nil {
            claims.append(Claim(source: .grant, productID: nil, expiresAt: grant.expiresAt, environment: nil))
        }
        return claims
    }

    /// Non-renewing purchases stacked in purchase order: each runs for its product's period
    /// from its purchase or from the end of the chain before it, whichever is later. One claim
    /// per chain (a gap starts a new one), carrying the product of the chain's last purchase.
    static func stackedPasses(_ purchases: [TransactionFact], catalog: ProductCatalog) -> [Claim] {
        let passes =
            purchases
            .compactMap { purchase -> (fact: TransactionFact, period: ISO8601Duration)? in
                guard let product = catalog.product(purchase.productID), product.type == .nonRenewing, product.trialOf == nil,
                    let period = product.period
                else { return nil }
                return (purchase, period)
            }
            .sorted { ($0.fact.purchaseDate, $0.fact.transactionID) < ($1.fact.purchaseDate, $1.fact.transactionID) }
        var claims: [Claim] = []
        var chainEnd: Date?
        var last: TransactionFact?
        for pass in passes {
            let start = max(pass.fact.purchaseDate, chainEnd ?? pass.fact.purchaseDate)
            if let end = chainEnd, pass.fact.purchaseDate > end, let previous = last {
                claims.append(Claim(source: .nonRenewing, productID: previous.productID, expiresAt: end, environment: previous.environment))
            }
            guard let end = pass.period.added(to: start) else { continue }
            chainEnd = end
            last = pass.fact
        }
        if let end = chainEnd, let previous = last {
            claims.append(Claim(source: .nonRenewing, productID: previous.productID, expiresAt: end, environment: previous.environment))
        }
        return claims
    }
}
