import AppStore
import Foundation
import Postgres
import Subscriptions

/// Forgetting an app user and removing one link, each with its `audit_log` row, in one
/// transaction. Apple's facts (transactions, renewal info, subscriptions) stay: they are
/// Apple's, and another user may own them.
public struct SubscriberRemoval: Sendable {
    /// What forgetting a user removed.
    public struct Forgotten: Sendable, Equatable {
        /// Links to subscriptions and purchases.
        public let links: Int
        /// Manual grants, revoked ones included.
        public let grants: Int
        /// Recorded original application versions.
        public let versions: Int
    }

    private let client: PostgresClient

    /// Creates the store.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// Removes everything that names `appUserID`: its links, grants, original application
    /// versions, consent and stored answers. Its app account tokens move to the forgotten ones,
    /// which link nobody whatever Apple says later (so does its own id, where purchases carry
    /// it as their token). Queued purchases keep their place in the inbox but neither their
    /// row nor their body names the user any more (finished ones also lose their receipt),
    /// webhook events (sent or not) drop it from their `app_user_ids` (its entitlement events
    /// go, with its entitlement baseline and review), and earlier audit rows no longer say who
    /// it was. The audit row of the removal says what was done and when, not who the user was.
    /// Nil when nothing was known of the user.
    public func forget(appUserID: String, actor: String) async throws -> Forgotten? {
        try await client.withTransaction { session in
            // No write of this user's answers runs while they are forgotten (AnswerStore).
            try session.execute(AnswerStore.answerLock(forgetting: appUserID).prepared())
            let grants = try session.execute(PostgresQuery("DELETE FROM entitlement_grants WHERE app_user_id = \(appUserID)").prepared())
            let versions = try session.execute(
                PostgresQuery("DELETE FROM original_application_versions WHERE app_user_id = \(appUserID)").prepared())
            let tokens = try session.execute(
                PostgresQuery(
                    """
                    WITH gone AS (DELETE FROM app_account_tokens WHERE app_user_id = \(appUserID) RETURNING token)
                    INSERT INTO forgotten_app_account_tokens (token) SELECT token FROM gone ON CONFLICT DO NOTHING
                    """
                ).prepared())
            // Apps that use their own UUIDs as tokens: the id is already in Apple's facts, as a token.
            try session.execute(
                PostgresQuery(
                    """
                    INSERT INTO forgotten_app_account_tokens (token)
                    SELECT DISTINCT t.app_account_token FROM subscribers l
                    JOIN transactions t ON t.environment = l.environment AND t.original_transaction_id = l.original_transaction_id
                    WHERE l.app_user_id = \(appUserID) AND t.app_account_token IN (\(appUserID), lower(\(appUserID)))
                    ON CONFLICT DO NOTHING
                    """
                ).prepared())
            let links = try session.execute(PostgresQuery("DELETE FROM subscribers WHERE app_user_id = \(appUserID)").prepared())
            let consents = try session.execute(
                PostgresQuery("DELETE FROM consumption_consents WHERE app_user_id = \(appUserID)").prepared())
            guard links + grants + versions + tokens + consents > 0 else { return nil }
            // Last: the deletes above raised the answers' version through their triggers.
            try session.execute(PostgresQuery("DELETE FROM subscriber_answers WHERE app_user_id = \(appUserID)").prepared())
            try session.execute(
                PostgresQuery(
                    """
                    UPDATE notifications
                    SET app_user_id = NULL,
                        receipt_removed_at = CASE WHEN state IN ('processed', 'dead') AND body ? 'receipt_data'
                                                  THEN now() ELSE receipt_removed_at END,
                        body = CASE WHEN state IN ('processed', 'dead') THEN body - 'app_user_id' - 'receipt_data'
                                    ELSE body - 'app_user_id' END
                    WHERE app_user_id = \(appUserID)
                    """
                ).prepared())
            try session.execute(PostgresQuery("UPDATE audit_log SET app_user_id = NULL WHERE app_user_id = \(appUserID)").prepared())
            try session.execute(
                PostgresQuery(
                    """
                    UPDATE webhook_events SET app_user_ids = array_remove(app_user_ids, \(appUserID))
                    WHERE app_user_ids @> ARRAY[\(appUserID)]::text[] AND app_user_id IS NULL
                    """
                ).prepared())
            // An entitlement's event is about the user alone: it goes.
            try session.execute(PostgresQuery("DELETE FROM webhook_events WHERE app_user_id = \(appUserID)").prepared())
            try EntitlementReviews.forget(appUserID: appUserID, in: session)
            try AuditLog.record(
                action: "subscriber_deleted", actor: actor, appUserID: nil,
                detail: ["links": String(links), "grants": String(grants), "original_application_versions": String(versions)], in: session)
            return Forgotten(links: links, grants: grants, versions: versions)
        }
    }

    /// Removes the link between `appUserID` and `originalTransactionID` (in every environment),
    /// with an audit row and, for a subscription, a `user_unlinked` event; false when there was none.
    public func unlink(appUserID: String, originalTransactionID: String, actor: String) async throws -> Bool {
        try await client.withTransaction { session in
            let environments = try session.query(
                PostgresQuery(
                    """
                    DELETE FROM subscribers WHERE app_user_id = \(appUserID) AND original_transaction_id = \(originalTransactionID)
                    RETURNING environment
                    """
                ).prepared()
            ).map { try $0.decode("environment", as: String.self) }
            guard !environments.isEmpty else { return false }
            try EntitlementReviews.markDue(appUserIDs: [appUserID], in: session)
            for environment in environments.compactMap(AppStoreEnvironment.init(rawValue:)) {
                try WebhookOutbox.record(
                    [LifecycleEvent(.userUnlinked)], previousStatus: nil, unlinkedUsers: [appUserID], environment: environment,
                    originalTransactionID: originalTransactionID, now: Date(), in: session)
            }
            try AuditLog.record(
                action: "user_unlinked", actor: actor, appUserID: appUserID,
                detail: ["original_transaction_id": originalTransactionID], in: session)
            return true
        }
    }
}
