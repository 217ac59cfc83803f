import Foundation

/// The simulator's own entitlement rule (DESIGN.md, "Entitlements, purchases and ownership"),
/// computed from its facts alone: every source that grants an entitlement now is a candidate,
/// and the one lasting longest wins.
public enum EntitlementRule {
    /// Every entitlement of `catalog`, in catalog order, for `facts` at `date`.
    public static func entitlements(of facts: EntitlementFacts, catalog: ProductCatalog, at date: Date) -> [EntitlementTruth] {
        catalog.entitlements.map { entitlement in
            EntitlementTruth(id: entitlement.id, grantedBy: choose(candidates(for: entitlement, facts: facts, catalog: catalog, at: date)))
        }
    }

    /// The winner among `candidates` (see `EntitlementCandidate.beats`); `nil` when there is none.
    public static func choose(_ candidates: [EntitlementCandidate]) -> EntitlementCandidate? {
        candidates.min { $0.beats($1) }
    }

    /// Every source granting `entitlement` at `date`.
    public static func candidates(
        for entitlement: SimEntitlement, facts: EntitlementFacts, catalog: ProductCatalog, at date: Date
    ) -> [EntitlementCandidate] {
        var found: [EntitlementCandidate] = []
        if facts.purchasesCount {
            found += subscriptions(for: entitlement, facts: facts, at: date)
            let purchases = facts.state.purchases.filter { $0.purchaseDate <= date && !$0.isRevoked(at: date) }
            found += purchases.compactMap { purchase in
                let product = catalog.purchaseProduct(purchase.productID)
                guard purchase.kind == .nonConsumable, product?.trialOf == nil,
                    entitlement.productIDs.contains(purchase.productID)
                else { return nil }
                return EntitlementCandidate(
                    source: .nonConsumable, productID: purchase.productID, expiresAt: nil, environment: facts.environment)
            }
            let passes = purchases.filter { $0.kind == .nonRenewing && entitlement.productIDs.contains($0.productID) }
            if let stacked = nonRenewing(passes, catalog: catalog, at: date) {
                found.append(
                    EntitlementCandidate(
                        source: .nonRenewing, productID: stacked.productID, expiresAt: stacked.end, environment: facts.environment
                    ))
            }
            found += purchases.compactMap { purchase in
                guard let product = catalog.purchaseProduct(purchase.productID), product.trialOf == entitlement.id,
                    let length = product.trialPeriod
                else { return nil }
                let end = length.end(from: purchase.purchaseDate)
                guard date < end else { return nil }
                return EntitlementCandidate(source: .trial, productID: purchase.productID, expiresAt: end, environment: facts.environment)
            }
        }
        if let rule = facts.app.grandfather, rule.entitlement == entitlement.id,
            let version = facts.originalApplicationVersion, AppVersion.isLower(version, than: rule.beforeVersion)
        {
            found.append(EntitlementCandidate(source: .grandfathered, productID: nil, expiresAt: nil, environment: facts.environment))
        }
        return found
    }

    /// Auto-renewable subscriptions whose current product grants `entitlement`, while active
    /// (until `expires_at`) or in their grace period (until its end).
    static func subscriptions(for entitlement: SimEntitlement, facts: EntitlementFacts, at date: Date) -> [EntitlementCandidate] {
        facts.state.subscriptions.compactMap { subscription in
            let latest = subscription.latest
            guard entitlement.productIDs.contains(latest.productID) else { return nil }
            let end: Date?
            switch subscription.status(at: date) {
            case .active: end = latest.expiresDate
            case .gracePeriod: end = subscription.renewal.gracePeriodExpiresDate
            default: end = nil
            }
            return end.map {
                EntitlementCandidate(source: .subscription, productID: latest.productID, expiresAt: $0, environment: facts.environment)
            }
        }
    }
}
