import Postgres
import Subscriptions
import Synchronization

/// The product catalog kept in memory with the `answer_catalog_generation` it was read at.
///
/// Every change to `products` raises the generation in the same transaction, so a catalog
/// read at generation G is the catalog of every snapshot that sees G: a statement that
/// reads G needs no product rows when the kept catalog is G's.
final class CatalogByGeneration: Sendable {
    private let kept = Mutex<(generation: Int64, catalog: ProductCatalog)?>(nil)

    /// The catalog of `generation`: the kept one, or else the whole catalog read now (at the
    /// generation current now, which is kept for the next question).
    func catalog(generation: Int64, client: PostgresClient) async throws -> ProductCatalog {
        if let kept = kept.withLock({ $0 }), kept.generation == generation { return kept.catalog }
        let rows = try await client.query(
            PostgresQuery(
                """
                SELECT g.generation AS catalog_generation, \(unescaped: Product.catalogColumns), \(unescaped: Entitlement.catalogColumns)
                FROM answer_catalog_generation g LEFT JOIN products p ON true
                """
            ).prepared())
        guard let first = rows.first else { throw StoreError("answer_catalog_generation has no row") }
        var products: [Product] = []
        for row in rows where try row.text("catalog_product_id") != nil {
            products.append(try Product(row: row, prefix: "catalog_"))
        }
        let read = (
            generation: try first.decode("catalog_generation", as: Int64.self),
            catalog: ProductCatalog(products: products, entitlements: try Entitlement.catalog(row: first))
        )
        kept.withLock { current in
            if current.map({ $0.generation < read.generation }) ?? true { current = read }
        }
        return read.catalog
    }
}
