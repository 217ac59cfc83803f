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
    /// in one transaction; products of other apps are left alone. `entitlements`, when given,
    /// replace every stored entitlement (they are catalog-wide); nil leaves them, less the
    /// links to removed products. Returns how many products were written and how many of
    /// those apps' old products were removed.
    @discardableResult
    public func replace(with products: [Product], entitlements: [Entitlement]? = nil) async throws -> (written: Int, removed: Int) {
        try await client.withTransaction { session in
            let bundles = Array(Set(products.map(\.bundleID))).sorted()
            let ids = products.map(\.productID)
            let removed = try session.execute(
                PostgresQuery(
                    """
                    DELETE FROM products WHERE bundle_id = ANY(\(bundles)::text[]) AND NOT (product_id = ANY(\(ids)::text[]))
                    """
                ).prepared())
            for product in products {
                let offer = product.introOffer
                let promotionalOffers = try product.promotionalOffers.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
                let prices = try product.prices.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
                try session.execute(
                    PostgresQuery(
                        """
                        INSERT INTO products (product_id, bundle_id, type, subscription_group_id, period,
                            intro_payment_mode, intro_period, intro_periods, intro_price, trial_of, trial_period, promotional_offers,
                            price, currency, prices)
                        VALUES (\(product.productID), \(product.bundleID), \(product.type.rawValue), \(product.subscriptionGroupID),
                            \(product.period?.description), \(offer?.paymentMode.rawValue), \(offer?.period.description),
                            \(offer?.periods), \(offer.map { "\($0.price)" })::numeric, \(product.trialOf), \(product.trialPeriod?.description),
                            \(promotionalOffers)::jsonb, \(product.price.map { "\($0.amount)" })::numeric, \(product.price?.currency),
                            \(prices)::jsonb)
                        ON CONFLICT (product_id) DO UPDATE SET
                            bundle_id = EXCLUDED.bundle_id, type = EXCLUDED.type, subscription_group_id = EXCLUDED.subscription_group_id,
                            period = EXCLUDED.period, intro_payment_mode = EXCLUDED.intro_payment_mode,
                            intro_period = EXCLUDED.intro_period, intro_periods = EXCLUDED.intro_periods,
                            intro_price = EXCLUDED.intro_price, trial_of = EXCLUDED.trial_of, trial_period = EXCLUDED.trial_period,
                            promotional_offers = EXCLUDED.promotional_offers, price = EXCLUDED.price, currency = EXCLUDED.currency,
                            prices = EXCLUDED.prices, updated_at = now()
                        """
                    ).prepared())
            }
            if let entitlements {
                try session.execute("DELETE FROM entitlements")
                for entitlement in entitlements {
                    try session.execute(PostgresQuery("INSERT INTO entitlements (entitlement_id) VALUES (\(entitlement.id))").prepared())
                    try session.execute(
                        PostgresQuery(
                            """
                            INSERT INTO entitlement_products (entitlement_id, product_id)
                            SELECT \(entitlement.id), unnest(\(entitlement.productIDs)::text[])
                            """
                        ).prepared())
                }
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
        let rows = try session.query(
            PostgresQuery(
                """
                SELECT \(unescaped: Product.catalogColumns), \(unescaped: Entitlement.catalogColumns)
                FROM (SELECT 1) one LEFT JOIN products p ON true
                ORDER BY p.bundle_id, p.subscription_group_id NULLS LAST, p.product_id
                """
            ).prepared())
        guard let first = rows.first else { return .empty }
        let products = try rows.filter { try $0.text("catalog_product_id") != nil }.map { try Product(row: $0, prefix: "catalog_") }
        return ProductCatalog(products: products, entitlements: try Entitlement.catalog(row: first))
    }
}

extension Entitlement {
    /// Every entitlement as two arrays in one row, `catalog_entitlement_ids` and
    /// `catalog_entitlement_products` (pairs in the same order, `''` for an entitlement
    /// without products): a subquery any catalog read adds to its select list, so products
    /// and entitlements come from one snapshot.
    static let catalogColumns: StaticString = """
        (SELECT coalesce(array_agg(e.entitlement_id ORDER BY e.entitlement_id, ep.product_id), '{}')
         FROM entitlements e LEFT JOIN entitlement_products ep USING (entitlement_id)) AS catalog_entitlement_ids,
        (SELECT coalesce(array_agg(coalesce(ep.product_id, '') ORDER BY e.entitlement_id, ep.product_id), '{}')
         FROM entitlements e LEFT JOIN entitlement_products ep USING (entitlement_id)) AS catalog_entitlement_products
        """

    /// The entitlements of a row that selected `catalogColumns`.
    static func catalog(row: PostgresRow) throws -> [Entitlement] {
        let ids: [String] = try row.decode("catalog_entitlement_ids")
        let products: [String] = try row.decode("catalog_entitlement_products")
        guard ids.count == products.count else { throw StoreError("entitlement arrays of different lengths") }
        var byID: [String: [String]] = [:]
        for (id, product) in zip(ids, products) {
            byID[id, default: []] += product.isEmpty ? [] : [product]
        }
        return byID.map { Entitlement(id: $0.key, productIDs: $0.value) }.sorted { $0.id < $1.id }
    }
}

extension Product {
    /// The columns of `products p` as a joined read names them, with the prefix `catalog_`.
    static let catalogColumns: StaticString = """
        p.product_id AS catalog_product_id, p.bundle_id AS catalog_bundle_id, p.type AS catalog_type,
        p.subscription_group_id AS catalog_subscription_group_id, p.period AS catalog_period,
        p.intro_payment_mode AS catalog_intro_payment_mode, p.intro_period AS catalog_intro_period,
        p.intro_periods AS catalog_intro_periods, p.intro_price::text AS catalog_intro_price,
        p.trial_of AS catalog_trial_of, p.trial_period AS catalog_trial_period,
        p.promotional_offers::text AS catalog_promotional_offers, p.price::text AS catalog_price,
        p.currency AS catalog_currency, p.prices::text AS catalog_prices
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
            offer = IntroOffer(
                paymentMode: mode, period: period, periods: try row.decode(prefix + "intro_periods", as: Int?.self) ?? 1, price: price)
        }
        self.init(
            productID: try row.decode(prefix + "product_id"), bundleID: try row.decode(prefix + "bundle_id"), type: type,
            subscriptionGroupID: try row.decode(prefix + "subscription_group_id"),
            period: (try row.decode(prefix + "period", as: String?.self)).flatMap(ISO8601Duration.init),
            introOffer: offer,
            trialOf: try row.decode(prefix + "trial_of"),
            trialPeriod: (try row.decode(prefix + "trial_period", as: String?.self)).flatMap(ISO8601Duration.init),
            promotionalOffers: try (try row.decode(prefix + "promotional_offers", as: String?.self)).map { text in
                do {
                    return try JSONDecoder().decode([PromotionalOfferRule].self, from: Data(text.utf8))
                } catch {
                    throw StoreError("malformed promotional_offers in products row")
                }
            },
            price: try Self.price(row.decode(prefix + "price", as: String?.self), row.decode(prefix + "currency", as: String?.self)),
            prices: try (try row.decode(prefix + "prices", as: String?.self)).map { text in
                do {
                    return try JSONDecoder().decode([String: StorePrice].self, from: Data(text.utf8))
                } catch {
                    throw StoreError("malformed prices in products row")
                }
            }
        )
    }

    /// A stored price and currency (the table holds both or neither).
    private static func price(_ text: String?, _ currency: String?) throws -> StorePrice? {
        guard let text, let currency else { return nil }
        guard let amount = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw StoreError("malformed price in products row")
        }
        return StorePrice(amount: amount, currency: currency)
    }
}
