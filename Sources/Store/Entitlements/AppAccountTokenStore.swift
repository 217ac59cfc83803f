import Foundation
import Postgres
import Subscriptions

/// `app_account_tokens`: which app user each handed-out `appAccountToken` names.
public struct AppAccountTokenStore: Sendable {
    private let client: PostgresClient

    /// Creates the store.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// This installation's token namespace: 16 random bytes made by the migration, the same
    /// for every call.
    public func namespace() async throws -> [UInt8] {
        let text: String =
            try await client.query(
                PostgresQuery(
                    "SELECT namespace::text AS namespace FROM app_account_token_namespace"
                ).prepared()
            ).first.map { try $0.decode("namespace") } ?? ""
        guard let uuid = UUID(uuidString: text) else { throw StoreError("app_account_token_namespace holds no namespace") }
        return withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }

    /// Records that `token` names `appUserID` in `bundleID` (again: nothing changes).
    public func record(token: String, bundleID: String, appUserID: String) async throws {
        try await client.execute(
            PostgresQuery(
                """
                INSERT INTO app_account_tokens (token, bundle_id, app_user_id) VALUES (\(token), \(bundleID), \(appUserID))
                ON CONFLICT (token) DO NOTHING
                """
            ).prepared())
    }

    /// What the newest `appAccountToken` among purchase `id`'s stored transactions says,
    /// inside the caller's transaction: a token handed out here names the user it was made
    /// for, any other the user whose id it is; nil when no transaction carries one.
    static func newestToken(
        environment: String, originalTransactionID id: String, in session: PostgresSession
    ) throws -> PurchaseOwnership.Token? {
        guard
            let row = try session.queryFirst(
                PostgresQuery(
                    """
                    SELECT t.app_account_token AS token, a.app_user_id AS issued_to
                    FROM transactions t LEFT JOIN app_account_tokens a ON a.token = t.app_account_token
                    WHERE t.environment = \(environment) AND t.original_transaction_id = \(id) AND t.app_account_token IS NOT NULL
                    ORDER BY t.purchase_date DESC, t.transaction_id DESC
                    LIMIT 1
                    """
                ).prepared())
        else { return nil }
        if let user = try row.decode("issued_to", as: String?.self) { return .issued(to: user) }
        return .userID(try row.decode("token", as: String.self))
    }
}
