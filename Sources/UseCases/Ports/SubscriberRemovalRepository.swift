import Store

/// Forgets users and removes links, with their audit rows (`SubscriberRemoval` in production).
public protocol SubscriberRemovalRepository: Sendable {
    /// Forgets `appUserID`; nil when nothing was known of it.
    func forget(appUserID: String, actor: String) async throws -> SubscriberRemoval.Forgotten?
    /// Removes one link; false when there was none.
    func unlink(appUserID: String, originalTransactionID: String, actor: String) async throws -> Bool
}
