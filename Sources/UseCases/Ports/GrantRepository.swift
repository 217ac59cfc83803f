import Foundation
import Store
import Subscriptions

/// Where manual grants are kept, with their audit rows (`GrantStore` in production).
public protocol GrantRepository: Sendable {
    /// Adds a grant; throws `GrantStore.Failure.unknownEntitlement` for an entitlement the catalog lacks.
    func add(appUserID: String, entitlement: String, expiresAt: Date?, reason: String, actor: String) async throws -> ManualGrant
    /// Revokes grant `id`; throws `GrantStore.Failure.unknownGrant` when there is none (of that user).
    func revoke(id: Int64, appUserID: String?, reason: String?, actor: String) async throws -> ManualGrant
    /// The grants of a user (nil: everyone's), newest first.
    func list(appUserID: String?, limit: Int) async throws -> [ManualGrant]
}
