import AppStore
import Foundation
import Postgres
import Subscriptions

extension WebhookOutbox {
    /// Writes the events of one subscription's change inside the caller's transaction (the
    /// one that changed it), so an event exists exactly when its change committed.
    ///
    /// A new subscription is `subscription_created` (it carries the users linked with it);
    /// a status change is `status_changed`; users linked without either are `user_linked`;
    /// users who lost it (another user's proof under `transfer`, an app account token naming
    /// someone else) are `user_unlinked`, whose `app_user_ids` are those users.
    static func record(
        change: StatusChange?, linkedUsers: [String], unlinkedUsers: [String] = [], environment: AppStoreEnvironment,
        originalTransactionID id: String, now: Date, in session: PostgresSession
    ) throws {
        var types: [(WebhookEventType, SubscriptionStatus?)] = []
        if let change {
            types.append(change.oldStatus == nil ? (.subscriptionCreated, nil) : (.statusChanged, change.oldStatus))
        }
        if !linkedUsers.isEmpty && change.map({ $0.oldStatus != nil }) ?? true {
            types.append((.userLinked, nil))
        }
        if !unlinkedUsers.isEmpty {
            types.append((.userUnlinked, nil))
        }
        guard !types.isEmpty,
              let view = try SubscriptionReader.views(environment: environment, ids: [id], now: now, in: session).first
        else { return }
        let linked = try session.query(PostgresQuery("""
            SELECT app_user_id FROM subscribers
            WHERE environment = \(environment.rawValue) AND original_transaction_id = \(id) ORDER BY app_user_id
            """).prepared()).map { try $0.decode("app_user_id", as: String.self) }
        let state = try StoredSubscriptionState(view).encoded()
        for (type, previous) in types {
            let users = type == .userUnlinked ? unlinkedUsers.sorted() : linked
            try session.execute(PostgresQuery("""
                INSERT INTO webhook_events
                    (event_id, type, bundle_id, environment, original_transaction_id, app_user_ids, previous_status, subscription)
                VALUES (\(newEventID()), \(type.rawValue), \(view.snapshot.bundleID), \(environment.rawValue), \(id),
                        \(users)::text[], \(previous?.rawValue), \(state)::jsonb)
                """).prepared())
        }
    }

    /// `evt_` and 32 random hex digits.
    static func newEventID() -> String {
        "evt_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}
