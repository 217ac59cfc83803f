import Foundation

/// What subscriptiond should say about one entitlement of one customer.
public struct EntitlementTruth: Sendable, Hashable {
    /// The entitlement id, e.g. `pro`.
    public var id: String
    /// The source that grants it now (the one chosen among all that do); `nil` when none does.
    public var grantedBy: EntitlementCandidate?

    /// An answer from its parts.
    public init(id: String, grantedBy: EntitlementCandidate?) {
        self.id = id
        self.grantedBy = grantedBy
    }

    /// Whether the customer has the entitlement now.
    public var active: Bool {
        grantedBy != nil
    }

    /// `pro:non_consumable` while active, else `nil`.
    public var summary: String? {
        grantedBy.map { "\(id):\($0.source.rawValue)" }
    }

    /// DESIGN.md's entitlement JSON: `active`, `source`, `product_id`, `expires_at`, `environment`.
    var json: JSONValue {
        .object([
            ("active", .bool(active)),
            ("source", grantedBy.map(\.source.rawValue).json),
            ("product_id", (grantedBy?.productID).json),
            ("expires_at", (grantedBy?.expiresAt).map(AppleDate.rfc3339).json),
            ("environment", (grantedBy?.environment?.rawValue).json),
        ])
    }
}
