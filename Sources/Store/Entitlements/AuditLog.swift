import Foundation
import Postgres

/// `audit_log`: what operators did by hand, written in the transaction of the change itself.
enum AuditLog {
    /// Appends one row; `detail` becomes the row's JSON object.
    static func record(action: String, actor: String, appUserID: String?, detail: [String: String], in session: PostgresSession) throws {
        let keys = detail.keys.sorted()
        try session.execute(
            PostgresQuery(
                """
                INSERT INTO audit_log (actor, action, app_user_id, detail)
                SELECT \(actor), \(action), \(appUserID), coalesce(jsonb_object_agg(k, v), '{}'::jsonb)
                FROM unnest(\(keys)::text[], \(keys.map { detail[$0] ?? "" })::text[]) AS d(k, v)
                """
            ).prepared())
    }
}

/// `audit_log` for actions that change nothing else (a promotional offer signed): one row in
/// a transaction of its own.
public struct AuditLogStore: Sendable {
    private let client: PostgresClient

    public init(client: PostgresClient) {
        self.client = client
    }

    /// Appends one row naming `actor`.
    public func record(action: String, actor: String, appUserID: String?, detail: [String: String]) async throws {
        try await client.withTransaction { session in
            try AuditLog.record(action: action, actor: actor, appUserID: appUserID, detail: detail, in: session)
        }
    }
}
