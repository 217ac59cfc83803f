import Postgres

/// `app_account_tokens`: which app user each handed-out `appAccountToken` names.
public struct AppAccountTokenStore: Sendable {
    private let client: PostgresClient

    /// Creates the store.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// Records that `token` names `appUserID` in `bundleID` (again: nothing changes).
    public func record(token: String, bundleID: String, appUserID: String) async throws {
        try await client.execute(PostgresQuery("""
            INSERT INTO app_account_tokens (token, bundle_id, app_user_id) VALUES (\(token), \(bundleID), \(appUserID))
            ON CONFLICT (token) DO NOTHING
            """).prepared())
    }

    /// The users the tokens name, inside the caller's transaction: a token handed out here
    /// names the user it was made for, any other names the user whose id it is.
    static func users(named tokens: Set<String>, in session: PostgresSession) throws -> [String: String] {
        guard !tokens.isEmpty else { return [:] }
        var users = Dictionary(uniqueKeysWithValues: tokens.map { ($0, $0) })
        for row in try session.query(PostgresQuery("""
            SELECT token, app_user_id FROM app_account_tokens WHERE token = ANY(\(Array(tokens))::text[])
            """)) {
            users[try row.decode("token")] = try row.decode("app_user_id")
        }
        return users
    }
}
