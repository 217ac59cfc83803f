import Subscriptions

/// What a valid catalog file holds.
public struct CatalogFile: Sendable {
    /// The products, in file order.
    public let products: [Product]
    /// The entitlements, sorted by id; nil when the file has no `entitlements` key (an import
    /// then leaves the stored entitlements alone).
    public let entitlements: [Entitlement]?
}
