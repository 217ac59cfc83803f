import Foundation
import Store
import Subscriptions

/// Granting and revoking entitlements by hand (support, comps): `POST/DELETE
/// /v1/subscribers/{id}/grants` and `subscriptionctl grants`, each with an audit row.
public struct ManualGrants: Sendable {
    /// The longest `reason` kept.
    public static let maximumReasonLength = 1_000

    private let store: any GrantRepository

    /// Grants kept in `store`.
    public init(store: any GrantRepository) {
        self.store = store
    }

    /// Grants `entitlement` to `appUserID` until `expiresAt` (nil: for good), for `reason`,
    /// done by `actor` (`api`, `cli:<user>`).
    public func add(
        appUserID: String, entitlement: String, expiresAt: Date?, reason: String, actor: String, now: Date = Date()
    ) async throws -> ManualGrant {
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !appUserID.isEmpty else { throw UseCaseError.malformed("app_user_id is empty") }
        guard !reason.isEmpty, reason.count <= Self.maximumReasonLength else {
            throw UseCaseError.malformed("reason must say why, in 1 to \(Self.maximumReasonLength) characters")
        }
        if let expiresAt, expiresAt <= now {
            throw UseCaseError.malformed("expires_at must lie in the future (or be null: for good)")
        }
        do {
            return try await store.add(appUserID: appUserID, entitlement: entitlement, expiresAt: expiresAt, reason: reason, actor: actor)
        } catch GrantStore.Failure.unknownEntitlement(let id) {
            throw UseCaseError.unknownEntitlement("the catalog has no entitlement \"\(id)\" (subscriptionctl products list shows them)")
        }
    }

    /// Revokes grant `id` (of `appUserID`, when given).
    public func revoke(id: Int64, appUserID: String?, reason: String?, actor: String) async throws -> ManualGrant {
        do {
            return try await store.revoke(id: id, appUserID: appUserID, reason: reason, actor: actor)
        } catch GrantStore.Failure.unknownGrant(let id) {
            throw UseCaseError.notFound("no grant \(id)" + (appUserID.map { " for app_user_id \($0)" } ?? ""))
        }
    }

    /// The grants of `appUserID` (nil: everyone's), newest first.
    public func list(appUserID: String?, limit: Int = 100) async throws -> [ManualGrant] {
        try await store.list(appUserID: appUserID, limit: max(1, min(limit, 10_000)))
    }
}
