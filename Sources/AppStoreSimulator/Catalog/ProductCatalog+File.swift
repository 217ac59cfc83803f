import Foundation

extension ProductCatalog {
    /// Reads the DESIGN.md catalog format (`{"entitlements":[...], "products":[...]}`); products
    /// of a type the simulator does not know are skipped.
    public init(json: some Sequence<UInt8>) throws {
        let file = try JSONDecoder().decode(CatalogFile.self, from: Data(json))
        self.init(
            products: file.products.compactMap(\.subscription),
            purchaseProducts: file.products.compactMap(\.purchase),
            entitlements: file.entitlements ?? []
        )
    }

    /// The catalog in DESIGN.md's format, as `subscriptionctl products import` reads it:
    /// indented, keys sorted, subscriptions first.
    public func jsonText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let file = CatalogFile(
            entitlements: entitlements,
            products: products.map { CatalogFile.Entry(subscription: $0) } + purchaseProducts.map { CatalogFile.Entry(purchase: $0) }
        )
        return String(decoding: try encoder.encode(file), as: UTF8.self)
    }
}

/// The catalog file: each product decodes by its `type`; unknown types are skipped.
private struct CatalogFile: Codable {
    struct Entry: Codable {
        enum Key: String, CodingKey { case type }
        var subscription: SimProduct?
        var purchase: SimPurchaseProduct?

        init(subscription: SimProduct) {
            self.subscription = subscription
        }

        init(purchase: SimPurchaseProduct) {
            self.purchase = purchase
        }

        init(from decoder: any Decoder) throws {
            let type = try decoder.container(keyedBy: Key.self).decodeIfPresent(String.self, forKey: .type)
            switch type.flatMap(SimPurchaseProduct.Kind.init(rawValue:)) {
            case .some: purchase = try SimPurchaseProduct(from: decoder)
            case nil where type == nil || type == "auto_renewable": subscription = try SimProduct(from: decoder)
            case nil: break
            }
        }

        func encode(to encoder: any Encoder) throws {
            try subscription?.encode(to: encoder)
            try purchase?.encode(to: encoder)
        }
    }

    var entitlements: [SimEntitlement]?
    var products: [Entry]
}
