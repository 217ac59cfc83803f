/// The kind of an in-app purchase product, as App Store Connect names it.
public enum ProductType: String, Sendable, Hashable, Codable, CaseIterable {
    /// Renews automatically inside a subscription group; the only kind with intro offers.
    case autoRenewable = "auto_renewable"
    /// A subscription for a fixed time that does not renew.
    case nonRenewing = "non_renewing"
    /// Used up once bought; can be bought again.
    case consumable
    /// Bought once, kept forever.
    case nonConsumable = "non_consumable"
}
