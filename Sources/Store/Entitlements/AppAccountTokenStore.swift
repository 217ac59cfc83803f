import Foundation
import Postgres

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

    /// The token recorded for `appUserID` in `bundleID`; when there is none, `candidate` is
    /// recorded and returned. Two callers racing for one user get the same token.
    public func token(bundleID: String, appUserID: String, recordingIfNone candidate: String) async throws -> String {
        for _ in 0..<2 {
            // The second branch cannot see the first's row (one snapshot): exactly one answers,
            // unless a racing caller committed between; then the next round reads its row.
            let row = try await client.query(
                PostgresQuery(
                    """
                    WITH inserted AS (
                        INSERT INTO app_account_tokens (token, bundle_id, app_user_id) VALUES (\(candidate), \(bundleID), \(appUserID))
                        ON CONFLICT DO NOTHING RETURNING token
                    )
                    SELECT token FROM inserted
                    UNION ALL
                    SELECT token FROM app_account_tokens WHERE bundle_id = \(bundleID) AND app_user_id = \(appUserID)
                    LIMIT 1
                    """
                ).prepared()
            ).first
            if let row { return try row.decode("token") }
        }
        throw StoreError("no app account token could be recorded for the user")
    }
}
