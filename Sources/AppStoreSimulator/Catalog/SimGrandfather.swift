/// An app's grandfather rule: customers whose original application version is lower than
/// `beforeVersion` (the app was paid up front before it) keep `entitlement` for good.
public struct SimGrandfather: Sendable, Hashable {
    /// The first version sold with subscriptions, e.g. `2.0`.
    public var beforeVersion: String
    /// The entitlement earlier buyers keep, e.g. `paid_pro`.
    public var entitlement: String

    /// A rule from its parts.
    public init(beforeVersion: String, entitlement: String) {
        self.beforeVersion = beforeVersion
        self.entitlement = entitlement
    }
}
