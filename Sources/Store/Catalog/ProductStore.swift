import Foundation
import Postgres
import Subscriptions

/// The `products` table: the catalog `subscriptionctl products import` loads.
public struct ProductStore: Sendable {
    private let client: PostgresClient

    /// Creates the repository.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// Replaces the catalog of every bundle id in `products` with exactly these products,
    /// in one transaction; products of other apps are left alone. Returns how many were
    /// written and how many of those apps' old products were removed.
    @discardableResult
    public func replace(with products: [Product]) async throws -> (written: Int, removed: Int) {
        try await client.withTransaction { session in
            let bundles = Array(Set(products.map(\.bundleID))).sorted()
            let ids = products.map(\.productID)
            let removed = try session.execute(PostgresQuery("""
                DELETE FROM products WHERE bundle_id = ANY(\(bundles)::text[]) AND NOT (product_id = ANY(\(ids)::text[]))
                """).prepared())
            for product in products {
                let offer = product.introOffer
                try session.execute(PostgresQuery("""
                    INSERT INTO products (product_id, bundle_id, type, subscription_group_id, period,
                        intro_payment_mode, intro_period, intro_periods, intro_price)
                    VALUES (\(product.productID), \(product.bundleID), \(product.type.rawValue), \(product.subscriptionGroupID),
                        \(product.period?.description), \(offer?.paymentMode.rawValue), \(offer?.period.description),
                        \(offer?.periods), \(offer.map { "\($0.price)" })::numeric)
                    ON CONFLICT (product_id) DO UPDATE SET
                        bundle_id = EXCLUDED.bundle_id, type = EXCLUDED.type, subscription_group_id = EXCLUDED.subscription_group_id,
                        period = EXCLUDED.period, intro_payment_mode = EXCLUDED.intro_payment_mode,
                        intro_period = EXCLUDED.intro_period, intro_periods = EXCLUDED.intro_periods,
                        intro_price = EXCLUDED.intro_price, updated_at = now()
                    """).prepared())
            }
            return (products.count, removed)
        }
    }

    /// The whole catalog, ordered by bundle, group and product id.
    public func catalog() async throws -> ProductCatalog {
        try await client.withConnection { session in try Self.catalog(in: session) }
    }

    /// The whole catalog, read inside the caller's session.
    public static func catalog(in session: PostgresSession) throws -> ProductCatalog {
        let rows = try session.query(PostgresQuery("""
            SELECT product_id, bundle_id, type, subscription_group_id, period, intro_payment_mode, intro_period,
                   intro_periods, intro_price::text AS intro_price
            FROM products ORDER BY bundle_id, subscription_group_id NULLS LAST, product_id
            """).prepared())
        return ProductCatalog(products: try rows.map { try Product(row: $0) })
    }
}

extension Product {
    /// The columns of `products p` as a joined read names them, with the prefix `catalog_`.
    static let catalogColumns: StaticString = """
        p.product_id AS catalog_product_id, p.bundle_id AS catalog_bundle_id, p.type AS catalog_type,
        p.subscription_group_id AS catalog_subscription_group_id, p.period AS catalog_period,
        p.intro_payment_mode AS catalog_intro_payment_mode, p.intro_period AS catalog_intro_period,
        p.intro_periods AS catalog_intro_periods, p.intro_price::text AS catalog_intro_price
        """

    /// Reads one `products` row; `prefix` names the columns of a joined read
    /// (`catalog_product_id` with prefix `catalog_`).
    init(row: PostgresRow, prefix: String = "") throws {
        let typeText: String = try row.decode(prefix + "type")
        guard let type = ProductType(rawValue: typeText) else { throw StoreError("unknown product type '\(typeText)'") }
        var offer: IntroOffer?
        if let modeText: String = try row.decode(prefix + "intro_payment_mode") {
            guard let mode = IntroPaymentMode(rawValue: modeText),
                  let period = (try row.decode(prefix + "intro_period", as: String?.self)).flatMap(ISO8601Duration.init),
                  let price = (try row.decode(prefix + "intro_price", as: String?.self)).flatMap({ Decimal(string: $0) })
            else { throw StoreError("malformed intro offer in products row") }
            offer = IntroOffer(paymentMode: mode, period: period, periods: try row.decode(prefix + "intro_periods", as: Int?.self) ?? 1, price: price)
        }
        self.init(
            productID: try row.decode(prefix + "product_id"), bundleID: try row.decode(prefix + "bundle_id"), type: type,
            subscriptionGroupID: try row.decode(prefix + "subscription_group_id"),
            period: (try row.decode(prefix + "period", as: String?.self)).flatMap(ISO8601Duration.init),
            introOffer: offer
        )
    }
}
