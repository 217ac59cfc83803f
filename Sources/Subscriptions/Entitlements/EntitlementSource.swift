/// Why a customer has an entitlement (DESIGN.md, "Entitlements, purchases and ownership").
///
/// The order of the cases is the order of preference between sources that last equally long.
public enum EntitlementSource: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// An auto-renewable subscription that is active or in its grace period.
    case subscription
    /// A non-consumable bought and not refunded: for good.
    case nonConsumable = "non_consumable"
    /// Non-renewing subscriptions, each for the product's period, consecutive ones stacked.
    case nonRenewing = "non_renewing"
    /// A `trial_of` product, for its `trial_period` from the purchase, by the server's clock.
    case trial
    /// The app's `grandfather` rule: the customer first bought a version before the line.
    case grandfathered
    /// An operator's manual grant.
    case grant

    public static func < (lhs: EntitlementSource, rhs: EntitlementSource) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
