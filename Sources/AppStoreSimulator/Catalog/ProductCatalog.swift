import Foundation

/// The products the simulator sells, with the look-ups scenarios need.
public struct ProductCatalog: Sendable, Hashable {
    /// Every auto-renewable product, in catalog order.
    public var products: [SimProduct]

    /// A catalog of `products`.
    public init(products: [SimProduct]) {
        self.products = products
    }

    /// Reads the DESIGN.md catalog format (`{"products":[...]}`); entries whose `type` is not
    /// `auto_renewable` are skipped, since the simulator only sells subscriptions.
    public init(json: some Sequence<UInt8>) throws {
        self.products = try JSONDecoder().decode(CatalogFile.self, from: Data(json)).products.compactMap(\.product)
    }

    /// The product with `productID`.
    public func product(_ productID: String) -> SimProduct? {
        products.first { $0.productID == productID }
    }

    /// The products `bundleID` sells.
    public func products(of bundleID: String) -> [SimProduct] {
        products.filter { $0.bundleID == bundleID }
    }

    /// The products of `groupID`.
    public func products(inGroup groupID: String) -> [SimProduct] {
        products.filter { $0.groupID == groupID }
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

/// The catalog file: subscriptions decode strictly, other product types are skipped.
private struct CatalogFile: Decodable {
    struct Entry: Decodable {
        enum Key: String, CodingKey { case type }
        var product: SimProduct?

        init(from decoder: any Decoder) throws {
            let type = try decoder.container(keyedBy: Key.self).decodeIfPresent(String.self, forKey: .type)
            product = type == nil || type == "auto_renewable" ? try SimProduct(from: decoder) : nil
        }
    }

    var products: [Entry]
}
