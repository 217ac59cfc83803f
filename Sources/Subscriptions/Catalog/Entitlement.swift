/// What a customer may use, named by the app (`pro`), and the products that grant it
/// (DESIGN.md, "Entitlements, purchases and ownership").
///
/// Encodes with the catalog file's field names, so `products list --json` prints what
/// `products import` reads.
public struct Entitlement: Sendable, Hashable, Codable {
    /// The app's name for it, unique in the catalog.
    public var id: String
    /// The products whose purchase grants it: auto-renewable subscriptions while they are
    /// active, non-consumables for good, non-renewing subscriptions for their period.
    public var productIDs: [String]

    /// Creates an entitlement.
    public init(id: String, productIDs: [String]) {
        self.id = id
        self.productIDs = productIDs
    }

    private enum CodingKeys: String, CodingKey {
        case id
        case productIDs = "product_ids"
    }
}
