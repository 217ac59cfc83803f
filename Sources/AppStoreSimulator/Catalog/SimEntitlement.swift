/// A catalog entitlement: what a user may use, and the products that grant it.
public struct SimEntitlement: Sendable, Hashable, Codable {
    /// The entitlement id, e.g. `pro`.
    public var id: String
    /// The products that grant it (auto-renewable, non-consumable and non-renewing ones;
    /// trial products grant through their `trial_of` instead).
    public var productIDs: [String]

    /// An entitlement from its parts.
    public init(id: String, productIDs: [String]) {
        self.id = id
        self.productIDs = productIDs
    }

    enum CodingKeys: String, CodingKey {
        case id
        case productIDs = "product_ids"
    }
}
