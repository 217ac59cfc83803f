import AppStore
import Foundation

/// One entitlement of one customer at one moment: the `entitlements` member of the
/// subscriber JSON.
public struct EntitlementState: Sendable, Hashable {
    /// Whether the customer may use it now.
    public var active: Bool
    /// The source that lasts longest among those granting it (nil when inactive).
    public var source: EntitlementSource?
    /// The product of that source (nil for `grandfathered`, `grant` and when inactive).
    public var productID: String?
    /// When that source ends; nil for good (or when inactive).
    public var expiresAt: Date?
    /// The environment of the purchase or proof it rests on (nil for `grant` and when inactive).
    public var environment: AppStoreEnvironment?

    /// Creates a state field by field.
    public init(active: Bool, source: EntitlementSource?, productID: String?, expiresAt: Date?, environment: AppStoreEnvironment?) {
        self.active = active
        self.source = source
        self.productID = productID
        self.expiresAt = expiresAt
        self.environment = environment
    }

    /// Not entitled.
    public static let inactive = EntitlementState(active: false, source: nil, productID: nil, expiresAt: nil, environment: nil)
}
