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
