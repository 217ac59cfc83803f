import Foundation
import Postgres

/// The console's reads about customers: who a text names (search) and what happened to them
/// (their timeline, in `CustomerQueries+Timeline.swift`).
public struct CustomerQueries: Sendable {
    let client: PostgresClient

    /// Queries over `client`'s database.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// The customers and purchases `text` names exactly: as an app user id, an original
    /// transaction id or a transaction id, and, when `token` is given (a lower-case UUID), as
    /// an app account token. Ordered by field, then user (unlinked purchases last), environment
    /// and purchase; at most `limit`.
    ///
    /// Every value is bound, so any text is safe; one holding NUL (which PostgreSQL refuses in
    /// text) or nothing names nobody.
    public func search(text: String, token: String?, limit: Int) async throws -> [CustomerMatch] {
        guard !text.isEmpty, !text.utf8.contains(0), limit > 0 else { return [] }
        let token = token.flatMap { $0.utf8.contains(0) ? nil : $0 }
        return try await client.query(
            """
            WITH hits AS (
                (SELECT 1 AS field, l.app_user_id, l.environment, l.original_transaction_id FROM subscribers l
                 WHERE l.app_user_id = \(text)
                 ORDER BY l.environment, l.original_transaction_id LIMIT \(limit))
                UNION ALL
                SELECT 1, \(text)::text, NULL, NULL
                WHERE NOT EXISTS (SELECT 1 FROM subscribers WHERE app_user_id = \(text))
                  AND (EXISTS (SELECT 1 FROM entitlement_grants WHERE app_user_id = \(text))
                       OR EXISTS (SELECT 1 FROM original_application_versions WHERE app_user_id = \(text)))
                UNION ALL
                (SELECT 2, l.app_user_id, p.environment, p.original_transaction_id
                 FROM (SELECT DISTINCT environment, original_transaction_id FROM transactions
                       WHERE environment IN ('Production', 'Sandbox', 'Xcode') AND original_transaction_id = \(text)) p
                 LEFT JOIN subscribers l ON l.environment = p.environment AND l.original_transaction_id = p.original_transaction_id
                 LIMIT \(limit))
                UNION ALL
                (SELECT 3, l.app_user_id, t.environment, t.original_transaction_id FROM transactions t
                 LEFT JOIN subscribers l ON l.environment = t.environment AND l.original_transaction_id = t.original_transaction_id
                 WHERE t.environment IN ('Production', 'Sandbox', 'Xcode') AND t.transaction_id = \(text)
                 LIMIT \(limit))
                UNION ALL
                (SELECT 4, l.app_user_id, p.environment, p.original_transaction_id
                 FROM (SELECT DISTINCT environment, original_transaction_id FROM transactions WHERE app_account_token = \(token)) p
                 LEFT JOIN subscribers l ON l.environment = p.environment AND l.original_transaction_id = p.original_transaction_id
                 LIMIT \(limit))
                UNION ALL
                SELECT 4, a.app_user_id, NULL, NULL FROM app_account_tokens a
                WHERE a.token = \(token) AND NOT EXISTS (
                    SELECT 1 FROM transactions t
                    JOIN subscribers l ON l.environment = t.environment AND l.original_transaction_id = t.original_transaction_id
                    WHERE t.app_account_token = a.token AND l.app_user_id = a.app_user_id)
            ), page AS (
                SELECT field, app_user_id, environment, original_transaction_id FROM (SELECT DISTINCT * FROM hits) AS distinct_hits
                ORDER BY field, app_user_id COLLATE "C" NULLS LAST, environment COLLATE "C" NULLS FIRST,
                         original_transaction_id COLLATE "C" NULLS FIRST
                LIMIT \(limit)
            )
            SELECT page.field, page.app_user_id, page.environment, page.original_transaction_id,
                   coalesce(s.product_id, newest.product_id) AS product_id
            FROM page
            LEFT JOIN subscriptions s ON s.environment = page.environment AND s.original_transaction_id = page.original_transaction_id
            LEFT JOIN LATERAL (
                SELECT t.product_id FROM transactions t
                WHERE t.environment = page.environment AND t.original_transaction_id = page.original_transaction_id
                ORDER BY t.purchase_date DESC, t.transaction_id COLLATE "C" DESC LIMIT 1
            ) newest ON true
            ORDER BY page.field, page.app_user_id COLLATE "C" NULLS LAST, page.environment COLLATE "C" NULLS FIRST,
                     page.original_transaction_id COLLATE "C" NULLS FIRST
            """
        ).map { row in
            let field: Int = try row.decode("field")
            guard CustomerMatch.Field.allCases.indices.contains(field - 1) else { throw StoreError("search field \(field)") }
            return CustomerMatch(
                matchedBy: CustomerMatch.Field.allCases[field - 1], appUserID: try row.decode("app_user_id"),
                originalTransactionID: try row.decode("original_transaction_id"), environment: try row.decode("environment"),
                productID: try row.decode("product_id"))
        }
    }

    /// The other users linked to the purchases `appUserID` is linked to (a shared login, family
    /// members, a reinstall under a new id): one pair per purchase and user, by purchase then
    /// user, at most `limit`. One statement, whatever the number of purchases.
    public func linkedUsers(of appUserID: String, limit: Int) async throws -> [(originalTransactionID: String, appUserID: String)] {
        guard !appUserID.isEmpty, !appUserID.utf8.contains(0), limit > 0 else { return [] }
        return try await client.query(
            """
            SELECT o.original_transaction_id, o.app_user_id
            FROM subscribers s
            JOIN subscribers o ON o.environment = s.environment AND o.original_transaction_id = s.original_transaction_id
                AND o.app_user_id <> s.app_user_id
            WHERE s.app_user_id = \(appUserID)
            GROUP BY o.original_transaction_id, o.app_user_id
            ORDER BY o.original_transaction_id COLLATE "C", o.app_user_id COLLATE "C"
            LIMIT \(limit)
            """
        ).map { row in (try row.decode("original_transaction_id"), try row.decode("app_user_id")) }
    }
}
