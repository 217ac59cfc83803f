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
