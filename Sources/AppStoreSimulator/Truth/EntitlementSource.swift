/// What grants an entitlement, in the order that breaks ties between sources lasting as long.
public enum EntitlementSource: String, Sendable, Hashable, CaseIterable, Comparable {
    /// An auto-renewable subscription, active or in its grace period.
    case subscription
    /// A non-consumable (a lifetime unlock), for good.
    case nonConsumable = "non_consumable"
    /// Stacked non-renewing subscriptions.
    case nonRenewing = "non_renewing"
    /// A free `trial_of` product, for its `trial_period`.
    case trial
    /// The app's grandfather rule, for good.
    case grandfathered
    /// An operator's manual grant (the simulator makes none).
    case grant

    /// Earlier in the tie-break order.
    public static func < (lhs: EntitlementSource, rhs: EntitlementSource) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
