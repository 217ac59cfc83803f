import Foundation
import Postgres
import Subscriptions

/// `entitlement_grants` and their `audit_log` rows: manual grants, each written together
/// with the row that says who did it and why.
public struct GrantStore: Sendable {
    /// Why a grant could not be changed.
    public enum Failure: Error, Sendable, Equatable {
        /// The catalog has no such entitlement.
        case unknownEntitlement(String)
        /// No such grant (for that user, when one was named).
        case unknownGrant(Int64)
    }

    private let client: PostgresClient

    /// Creates the store.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// Grants `entitlement` to `appUserID` until `expiresAt` (nil: for good), with an audit
    /// row naming `actor`; the entitlement must be in the catalog.
    public func add(appUserID: String, entitlement: String, expiresAt: Date?, reason: String, actor: String) async throws -> ManualGrant {
        try await client.withTransaction { session in
            // The catalog row is locked so an import cannot remove it under the new grant.
            guard
                try session.queryFirst(
                    PostgresQuery(
                        """
                        SELECT 1 FROM entitlements WHERE entitlement_id = \(entitlement) FOR SHARE
                        """
                    ).prepared()) != nil
            else { throw Failure.unknownEntitlement(entitlement) }
            guard
                let row = try session.queryFirst(
                    PostgresQuery(
                        """
                        INSERT INTO entitlement_grants (app_user_id, entitlement_id, expires_at, reason)
                        VALUES (\(appUserID), \(entitlement), \(expiresAt), \(reason))
                        RETURNING \(unescaped: ManualGrant.columns)
                        """
                    ).prepared())
            else { throw StoreError("INSERT … RETURNING gave no row") }
            let grant = try ManualGrant(row: row)
            try EntitlementReviews.markDue(appUserIDs: [appUserID], in: session)
            try AuditLog.record(action: "grant_added", actor: actor, appUserID: appUserID, detail: grant.auditDetail, in: session)
            return grant
        }
    }

    /// Revokes grant `id` (of `appUserID`, when given), with an audit row; revoking a revoked
    /// grant changes nothing and returns it as it is.
    public func revoke(id: Int64, appUserID: String?, reason: String?, actor: String) async throws -> ManualGrant {
        try await client.withTransaction { session in
            guard
                let row = try session.queryFirst(
                    PostgresQuery(
                        """
                        UPDATE entitlement_grants SET revoked_at = coalesce(revoked_at, now())
                        WHERE id = \(id) AND (\(appUserID)::text IS NULL OR app_user_id = \(appUserID)::text)
                        RETURNING \(unescaped: ManualGrant.columns)
                        """
                    ).prepared())
            else { throw Failure.unknownGrant(id) }
            let grant = try ManualGrant(row: row)
            try EntitlementReviews.markDue(appUserIDs: [grant.appUserID], in: session)
            var detail = grant.auditDetail
            if let reason { detail["revoke_reason"] = reason }
            try AuditLog.record(action: "grant_revoked", actor: actor, appUserID: grant.appUserID, detail: detail, in: session)
            return grant
        }
    }

    /// The grants of `appUserID` (nil: everyone's), newest first, at most `limit`.
    public func list(appUserID: String?, limit: Int) async throws -> [ManualGrant] {
        try await client.query(
            PostgresQuery(
                """
                SELECT \(unescaped: ManualGrant.columns) FROM entitlement_grants
                WHERE \(appUserID)::text IS NULL OR app_user_id = \(appUserID)::text
                ORDER BY id DESC LIMIT \(limit)
                """
            ).prepared()
        ).map { try ManualGrant(row: $0) }
    }
}

extension ManualGrant {
    /// The columns `init(row:)` reads.
    static let columns: StaticString = "id, app_user_id, entitlement_id, expires_at, reason, created_at, revoked_at"

    init(row: PostgresRow) throws {
        self.init(
            id: try row.decode("id"), appUserID: try row.decode("app_user_id"), entitlement: try row.decode("entitlement_id"),
            expiresAt: try row.decode("expires_at"), reason: try row.decode("reason"), createdAt: try row.decode("created_at"),
            revokedAt: try row.decode("revoked_at"))
    }

    /// What the audit log keeps of the grant.
    var auditDetail: [String: String] {
        var detail = ["grant_id": String(id), "entitlement": entitlement, "reason": reason]
        detail["expires_at"] = expiresAt.map { ISO8601DateFormatter().string(from: $0) }
        return detail
    }
}
