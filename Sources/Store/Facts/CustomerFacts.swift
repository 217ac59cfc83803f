import AppStore
import Foundation
import Postgres
import Subscriptions

/// Everything stored about one app user that an eligibility question needs, read with one
/// statement: the user's links with their transactions and renewal info, and the catalog
/// entries of the products asked about and of the products the user bought.
public struct CustomerFacts: Sendable {
    /// Every transaction and renewal fact of the user's linked subscriptions.
    public let history: CustomerHistory
    /// The part of the product catalog the question needs: the products asked about and
    /// the products of the user's transactions (what `EligibilityRule` looks up).
    public let catalog: ProductCatalog
    /// False when the user has no linked subscription (a new customer).
    public let isKnown: Bool

    /// Loads a user's facts and the catalog entries of `productIDs` and of the user's products.
    public static func load(appUserID: String, productIDs: [String], client: PostgresClient) async throws -> CustomerFacts {
        // `facts` and `catalog` have different columns; joining each to the other ON false
        // (a FULL JOIN ON false, spelled out) stacks both in one result with NULLs for the other's.
        let rows = try await client.query(PostgresQuery("""
            WITH facts AS (
                SELECT \(unescaped: JoinedFacts.columns),
                       l.environment AS link_environment, l.original_transaction_id AS link_original_transaction_id,
                       NULL::timestamptz AS subscription_updated_at, NULL::text AS catalog_group_id
                FROM subscribers l
                LEFT JOIN transactions t ON t.environment = l.environment AND t.original_transaction_id = l.original_transaction_id
                LEFT JOIN renewal_info r ON r.environment = l.environment AND r.original_transaction_id = l.original_transaction_id
                WHERE l.app_user_id = \(appUserID)
            ), catalog AS (
                SELECT product_id AS catalog_product_id, bundle_id AS catalog_bundle_id, type AS catalog_type,
                       subscription_group_id AS catalog_subscription_group_id, period AS catalog_period,
                       intro_payment_mode AS catalog_intro_payment_mode, intro_period AS catalog_intro_period,
                       intro_periods AS catalog_intro_periods, intro_price::text AS catalog_intro_price
                FROM products
                WHERE product_id = ANY(\(productIDs)::text[]) OR product_id IN (SELECT product_id FROM facts)
            )
            SELECT f.*, c.* FROM facts f LEFT JOIN catalog c ON false
            UNION ALL
            SELECT f.*, c.* FROM catalog c LEFT JOIN facts f ON false
            """).prepared())
        var products: [Product] = []
        var factRows: [PostgresRow] = []
        for row in rows {
            if try row.text("catalog_product_id") != nil {
                products.append(try Product(row: row, prefix: "catalog_"))
            } else {
                factRows.append(row)
            }
        }
        let facts = try JoinedFacts(rows: factRows)
        return CustomerFacts(
            history: CustomerHistory(transactions: facts.transactions.values.flatMap { $0 }, renewals: Array(facts.renewals.values)),
            catalog: ProductCatalog(products: products),
            isKnown: !factRows.isEmpty
        )
    }
}
