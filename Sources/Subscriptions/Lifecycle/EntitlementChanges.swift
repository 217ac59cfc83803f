/// `entitlement_changed` (DESIGN.md, "Lifecycle events"): which of a customer's entitlements
/// began or ended since the last review, whatever moved them (a purchase, a refund, a link,
/// a grant, or time ending a period, a grace period, a pass, a trial or a grant).
///
/// Pure: the entitlements active at the last review against ``EntitlementRule``'s answer now.
/// An entitlement that stays active (a renewal, another source taking over) is no change;
/// one the catalog no longer has, active before, has ended.
public enum EntitlementChanges {
    /// One entitlement that began (`state.active`) or ended.
    public struct Change: Sendable, Equatable {
        /// The entitlement's id.
        public let entitlementID: String
        /// Its state now (``EntitlementState/inactive`` when it ended).
        public let state: EntitlementState

        public init(entitlementID: String, state: EntitlementState) {
            self.entitlementID = entitlementID
            self.state = state
        }
    }

    /// The entitlements whose `active` differs between `previouslyActive` and `states`, by id.
    public static func changes(previouslyActive: Set<String>, now states: [String: EntitlementState]) -> [Change] {
        previouslyActive.union(states.keys).sorted().compactMap { id in
            let state = states[id] ?? .inactive
            return state.active == previouslyActive.contains(id) ? nil : Change(entitlementID: id, state: state)
        }
    }

    /// The apps an entitlement's events are written for: the bundles of the products that
    /// grant it, sorted; every app in `apps` when the catalog lists none (an entitlement only
    /// grants and grandfathering give, or one the catalog no longer has).
    public static func bundleIDs(of entitlementID: String, catalog: ProductCatalog, apps: [String]) -> [String] {
        let listed = catalog.entitlements.first { $0.id == entitlementID }?.productIDs ?? []
        let bundles = Set(listed.compactMap { catalog.product($0)?.bundleID })
        return bundles.isEmpty ? apps.sorted() : bundles.sorted()
    }
}
