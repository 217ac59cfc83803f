import Access
import Store

/// Forgetting an app user (privacy requests) and removing one of its links, by hand:
/// `DELETE /v1/subscribers/{id}`, `subscriptionctl subscriber delete` and `subscriber unlink`.
public struct SubscriberForgetting: Sendable {
    private let store: any SubscriberRemovalRepository

    /// Forgets and unlinks in `store`.
    public init(store: any SubscriberRemovalRepository) {
        self.store = store
    }

    /// Removes the user's links, grants, original application versions and stored answers;
    /// `notFound` when nothing was known of it.
    /// Forgets `appUserID` for `principal`, which must be an admin that sees every app: a user
    /// is one across the deployment's apps, and forgetting removes them from all.
    public func forget(appUserID: String, by principal: Principal) async throws -> SubscriberRemoval.Forgotten {
        guard principal.may(.admin), principal.apps == .all else {
            throw UseCaseError.forbidden("forgetting a user removes them from every app: it needs an admin key for every app")
        }
        return try await forget(appUserID: appUserID, actor: principal.actor)
    }

    public func forget(appUserID: String, actor: String) async throws -> SubscriberRemoval.Forgotten {
        guard let forgotten = try await store.forget(appUserID: appUserID, actor: actor) else {
            throw UseCaseError.notFound("no subscriber with app_user_id \(appUserID)")
        }
        return forgotten
    }

    /// Removes the link between the user and a subscription or purchase; `notFound` when there is none.
    public func unlink(appUserID: String, originalTransactionID: String, actor: String) async throws {
        guard try await store.unlink(appUserID: appUserID, originalTransactionID: originalTransactionID, actor: actor) else {
            throw UseCaseError.notFound("app_user_id \(appUserID) is not linked to original transaction \(originalTransactionID)")
        }
    }
}
