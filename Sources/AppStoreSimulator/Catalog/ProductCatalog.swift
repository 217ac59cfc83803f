import Foundation

/// The products the simulator sells and the entitlements they grant, with the look-ups
/// scenarios need.
public struct ProductCatalog: Sendable, Hashable {
    /// Every auto-renewable product, in catalog order.
    public var products: [SimProduct]
    /// Every other product (consumable, non-consumable, non-renewing), in catalog order.
    public var purchaseProducts: [SimPurchaseProduct]
    /// The entitlements, in catalog order.
    public var entitlements: [SimEntitlement]

    /// A catalog of `products`, `purchaseProducts` and `entitlements`.
    public init(products: [SimProduct], purchaseProducts: [SimPurchaseProduct] = [], entitlements: [SimEntitlement] = []) {
        self.products = products
        self.purchaseProducts = purchaseProducts
        self.entitlements = entitlements
    }

    /// The auto-renewable product with `productID`.
    public func product(_ productID: String) -> SimProduct? {
        products.first { $0.productID == productID }
    }

    /// The non-subscription product with `productID`.
    public func purchaseProduct(_ productID: String) -> SimPurchaseProduct? {
        purchaseProducts.first { $0.productID == productID }
    }

    /// The auto-renewable products `bundleID` sells.
    public func products(of bundleID: String) -> [SimProduct] {
        products.filter { $0.bundleID == bundleID }
    }

    /// The non-subscription products `bundleID` sells.
    public func purchaseProducts(of bundleID: String) -> [SimPurchaseProduct] {
        purchaseProducts.filter { $0.bundleID == bundleID }
    }

    /// The products of `groupID`.
    public func products(inGroup groupID: String) -> [SimProduct] {
        products.filter { $0.groupID == groupID }
    }

    /// The entitlement with `id`.
    public func entitlement(_ id: String) -> SimEntitlement? {
        entitlements.first { $0.id == id }
    }

    /// Every bundle id that sells something, in catalog order.
    public var bundleIDs: [String] {
        var seen: [String] = []
        for bundleID in products.map(\.bundleID) + purchaseProducts.map(\.bundleID) where !seen.contains(bundleID) {
            seen.append(bundleID)
        }
        return seen
    }

    /// Products of the same group at a higher level of service (a smaller level number).
    func upgrades(from product: SimProduct) -> [SimProduct] {
        products(inGroup: product.groupID).filter { $0.level < product.level }
    }

    /// Products of the same group at a lower level of service.
    func downgrades(from product: SimProduct) -> [SimProduct] {
        products(inGroup: product.groupID).filter { $0.level > product.level }
    }

    /// Other products of the same group at the same level.
    func crossgrades(from product: SimProduct) -> [SimProduct] {
        products(inGroup: product.groupID).filter {
            $0.level == product.level && $0.productID != product.productID
        }
    }
}
