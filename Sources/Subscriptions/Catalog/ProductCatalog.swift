/// The products the app sells, looked up by id and by subscription group, and the
/// entitlements they grant.
public struct ProductCatalog: Sendable {
    /// Every product, in the order given.
    public let products: [Product]
    /// Every entitlement, sorted by id.
    public let entitlements: [Entitlement]
    private let byID: [String: Product]

    /// A catalog of `products` and `entitlements`; when an id repeats, the first one wins
    /// (`CatalogParser` rejects such files, so this only matters for catalogs built in code).
    public init(products: [Product], entitlements: [Entitlement] = []) {
        self.products = products
        var seen: Set<String> = []
        self.entitlements = entitlements.filter { seen.insert($0.id).inserted }.sorted { $0.id < $1.id }
        self.byID = Dictionary(products.map { ($0.productID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The empty catalog.
    public static let empty = ProductCatalog(products: [], entitlements: [])

    /// The entitlement with this id, if the catalog has it.
    public func entitlement(_ id: String) -> Entitlement? {
        entitlements.first { $0.id == id }
    }

    /// The product with this id, if the catalog has it.
    public func product(_ productID: String) -> Product? {
        byID[productID]
    }

    /// Whether a purchase of `productID` made in the app `bundleID` may grant anything: not
    /// when the catalog sells the product in another app (an Xcode-signed transaction can name
    /// any bundle); a product the catalog does not list is judged by the rules that need it.
    public func sells(_ productID: String, in bundleID: String) -> Bool {
        byID[productID].map { $0.bundleID == bundleID } ?? true
    }

    /// The products of one subscription group, in catalog order.
    public func products(inGroup groupID: String) -> [Product] {
        products.filter { $0.subscriptionGroupID == groupID }
    }
}
