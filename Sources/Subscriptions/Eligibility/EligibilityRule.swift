import Foundation

/// Decides introductory-offer eligibility per product (APPSTORE.md, "Introductory offers").
///
/// Pure: the same catalog, history, time and policy always give the same answers.
public enum EligibilityRule {
    /// The answer for each of `productIDs` (repeated ids share one entry).
    ///
    /// - A product not in the catalog is `unknown_product`, even when the history mentions
    ///   it: without the catalog nobody knows whether it has an offer.
    /// - A product without an intro offer (or that is not auto-renewable) is `no_intro_offer`.
    /// - Otherwise, with the `apple` policy, it is `ineligible` when any transaction in the
    ///   product's group was a free trial or intro period (refunded, revoked and family-shared
    ///   ones included), or when a subscription in the group is entitled at `now`
    ///   (`active` or `grace_period`: an upgrade, downgrade or crossgrade gets no offer);
    ///   `billing_retry`, `expired` and `revoked` subscribers without a used offer are `eligible`.
    /// - The `strict` policy also makes anyone with any transaction in the group `ineligible`.
    ///
    /// A transaction's group is the catalog's group for its product, else the group Apple
    /// reported on it. A product with no group at all forms a group of its own.
    public static func answers(
        for productIDs: [String],
        catalog: ProductCatalog,
        history: CustomerHistory,
        now: Date,
        policy: EligibilityPolicy = .apple
    ) -> [String: EligibilityAnswer] {
        answers(for: productIDs, catalog: catalog, usage: GroupUsage(history: history, catalog: catalog, now: now), policy: policy)
    }

    /// The answer for each of `productIDs` from a customer's usage summarised earlier (at a
    /// time when it was the same as now) with the same catalog.
    public static func answers(
        for productIDs: [String],
        catalog: ProductCatalog,
        usage: GroupUsage,
        policy: EligibilityPolicy = .apple
    ) -> [String: EligibilityAnswer] {
        var answers: [String: EligibilityAnswer] = [:]
        for productID in productIDs where answers[productID] == nil {
            answers[productID] = answer(productID, catalog: catalog, usage: usage, policy: policy)
        }
        return answers
    }

    private static func answer(
        _ productID: String,
        catalog: ProductCatalog,
        usage: GroupUsage,
        policy: EligibilityPolicy
    ) -> EligibilityAnswer {
        guard let product = catalog.product(productID) else { return .unknownProduct }
        guard product.type == .autoRenewable, product.introOffer != nil else { return .noIntroOffer }
        let group = GroupUsage.key(productID: productID, reportedGroup: nil) { catalog.product($0)?.subscriptionGroupID }
        if usage.offerUsed.contains(group) || usage.entitled.contains(group) { return .ineligible }
        if policy == .strict, usage.purchased.contains(group) { return .ineligible }
        return .eligible
    }
}
