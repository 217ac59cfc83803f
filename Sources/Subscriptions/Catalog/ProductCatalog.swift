/// The products the app sells, looked up by id and by subscription group.
public struct ProductCatalog: Sendable {
    /// Every product, in the order given.
    public let products: [Product]
    private let byID: [String: Product]

    /// A catalog of `products`; when an id repeats, the first one wins (`CatalogParser`
    /// rejects such files, so this only matters for catalogs built in code).
    public init(products: [Product]) {
        self.products = products
        self.byID = Dictionary(products.map { ($0.productID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The empty catalog.
    public static let empty = ProductCatalog(products: [])

    /// The product with this id, if the catalog has it.
    public func product(_ productID: String) -> Product? {
        byID[productID]
    }

    /// The products of one subscription group, in catalog order.
    public func products(inGroup groupID: String) -> [Product] {
        products.filter { $0.subscriptionGroupID == groupID }
    }
}
