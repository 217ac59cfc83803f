import AppStore
import Foundation
import Postgres
import Subscriptions

extension WebhookOutbox {
    /// Writes the events of one subscription's change inside the caller's transaction (the
    /// one that changed it), so an event exists exactly when its change committed.
    ///
    /// `events` are decided already (``FactApplication``: the change's lifecycle events,
    /// `user_linked` and `user_unlinked`, after the app's selection); each names the users
    /// linked now, `user_unlinked` the users who lost the subscription (`unlinkedUsers`).
    /// `previousStatus` is the status before, when it moved.
    static func record(
        _ events: [LifecycleEvent], previousStatus: SubscriptionStatus?, unlinkedUsers: [String] = [],
        environment: AppStoreEnvironment, originalTransactionID id: String, now: Date, in session: PostgresSession
    ) throws {
        guard !events.isEmpty,
            let view = try SubscriptionReader.views(environment: environment, ids: [id], now: now, in: session).first
        else { return }
        let state = StoredSubscriptionState(view)
        try write(
            events, bundleID: view.snapshot.bundleID, previousStatus: previousStatus,
            subject: .subscription(try state.encoded()), subjectIdentity: try state.identityText(),
            unlinkedUsers: unlinkedUsers, environment: environment, originalTransactionID: id, in: session)
    }

    /// Writes the events of one one-time purchase's change inside the caller's transaction, as
    /// ``record(_:previousStatus:unlinkedUsers:environment:originalTransactionID:now:in:)``
    /// does; the body carries the purchase as stored now, with its catalog type and period end.
    static func recordPurchase(
        _ events: [LifecycleEvent], unlinkedUsers: [String], environment: AppStoreEnvironment, originalTransactionID id: String,
        in session: PostgresSession
    ) throws {
        guard !events.isEmpty,
            let row = try session.queryFirst(
                PostgresQuery(
                    """
                    SELECT \(unescaped: TransactionFact.columns) FROM transactions
                    WHERE environment = \(environment.rawValue) AND original_transaction_id = \(id)
                    ORDER BY purchase_date DESC, transaction_id DESC LIMIT 1
                    """
                ).prepared())
        else { return }
        let fact = try TransactionFact(row: row)
        let product = try session.queryFirst(
            PostgresQuery(
                """
                SELECT \(unescaped: Product.catalogColumns) FROM products p WHERE p.product_id = \(fact.productID)
                """
            ).prepared()
        ).map { try Product(row: $0, prefix: "catalog_") }
        guard
            let purchase = PurchaseSummary.purchases(
                of: CustomerHoldings(oneTimePurchases: [fact]), catalog: ProductCatalog(products: product.map { [$0] } ?? [])
            ).first
        else { return }
        let state = StoredPurchaseState(purchase)
        try write(
            events, bundleID: fact.bundleID, previousStatus: nil, subject: .purchase(try state.encoded()),
            subjectIdentity: try state.sortedKeyText(), unlinkedUsers: unlinkedUsers, environment: environment,
            originalTransactionID: id, in: session)
    }

    /// Writes one user's `entitlement_changed` events inside the caller's transaction (the
    /// review that found the changes): for each change, one event per app of `bundleIDs(id)`
    /// whose selection has the type, with the entitlement's state now. The user's events go
    /// out in order (`app_user_id`), as a subscription's do.
    static func recordEntitlementChanges(
        _ changes: [EntitlementChanges.Change], appUserID: String, bundleIDs: (String) -> [String],
        webhookEvents: WebhookEventSelection, in session: PostgresSession
    ) throws {
        for change in changes {
            let bundles = bundleIDs(change.entitlementID).filter { webhookEvents.kinds(bundleID: $0).contains(.entitlementChanged) }
            guard !bundles.isEmpty else { continue }
            let state = StoredEntitlementState(change)
            let entitlement = try state.encoded()
            let environment = (change.state.environment ?? .production).rawValue
            for bundleID in bundles {
                let identity = eventIdentity(
                    LifecycleEvent.Kind.entitlementChanged.rawValue, bundleID, environment, appUserID, try state.sortedKeyText())
                try session.execute(
                    PostgresQuery(
                        """
                        INSERT INTO webhook_events (event_id, type, bundle_id, environment, app_user_ids, app_user_id, entitlement)
                        VALUES ('evt_' || left(encode(sha256(convert_to(\(identity)::text || coalesce((
                                    SELECT w.event_id FROM webhook_events w WHERE w.app_user_id = \(appUserID) ORDER BY w.id DESC LIMIT 1
                                ), ''), 'UTF8')), 'hex'), 32),
                                \(LifecycleEvent.Kind.entitlementChanged.rawValue), \(bundleID), \(environment),
                                ARRAY[\(appUserID)]::text[], \(appUserID), \(entitlement)::jsonb)
                        """
                    ).prepared())
            }
        }
    }

    /// Writes the event a notification type brings of its own (``AppleNotificationEvent``)
    /// inside the caller's transaction, when the app's selection has its type:
    /// `consent_rescinded` names every user of the Apple account (linked to a purchase carrying
    /// its `appTransactionId`, or who posted its AppTransaction); a subscription's event carries
    /// the subscription as stored now (nothing when it is not stored).
    public static func record(
        _ event: AppleNotificationEvent, bundleID: String, environment: AppStoreEnvironment, webhookEvents: WebhookEventSelection,
        now: Date, in session: PostgresSession
    ) throws {
        guard webhookEvents.kinds(bundleID: bundleID).contains(event.kind) else { return }
        switch event {
        case .subscription(let lifecycle, let id):
            try record([lifecycle], previousStatus: nil, environment: environment, originalTransactionID: id, now: now, in: session)
        case .consentRescinded(let appTransactionID):
            try session.execute(
                PostgresQuery(
                    """
                    INSERT INTO webhook_events (event_id, type, bundle_id, environment, app_user_ids, app_transaction_id)
                    SELECT 'evt_' || left(encode(sha256(convert_to(
                               \(eventIdentity(event.kind.rawValue, bundleID, environment.rawValue, appTransactionID))::text
                               || chr(31) || array_to_string(a.users, ','), 'UTF8')), 'hex'), 32),
                           \(event.kind.rawValue), \(bundleID), \(environment.rawValue), a.users, \(appTransactionID)
                    FROM (
                        SELECT coalesce(array_agg(DISTINCT u.app_user_id ORDER BY u.app_user_id), ARRAY[]::text[]) AS users
                        FROM (
                            SELECT s.app_user_id FROM transactions t
                            JOIN subscribers s ON s.environment = t.environment AND s.original_transaction_id = t.original_transaction_id
                            WHERE t.app_transaction_id = \(appTransactionID) AND t.bundle_id = \(bundleID)
                            UNION
                            SELECT app_user_id FROM original_application_versions
                            WHERE app_transaction_id = \(appTransactionID) AND bundle_id = \(bundleID)
                        ) u
                    ) a
                    """
                ).prepared())
        }
    }

    /// What an event of one subscription or purchase carries frozen: the subscription's or
    /// the purchase's JSON as stored when it was written.
    private enum Subject {
        case subscription(String)
        case purchase(String)
    }

    /// Inserts `events` of one subscription or purchase, each naming the users linked now
    /// (`user_unlinked`: the users unlinked), with its frozen `subject`; `subjectIdentity`
    /// is what the subject says, without when it was written.
    private static func write(
        _ events: [LifecycleEvent], bundleID: String, previousStatus: SubscriptionStatus?, subject: Subject, subjectIdentity: String,
        unlinkedUsers: [String], environment: AppStoreEnvironment, originalTransactionID id: String, in session: PostgresSession
    ) throws {
        let (subscription, purchase): (String?, String?) =
            switch subject {
            case .subscription(let json): (json, nil)
            case .purchase(let json): (nil, json)
            }
        let linked = try session.query(
            PostgresQuery(
                """
                SELECT app_user_id FROM subscribers
                WHERE environment = \(environment.rawValue) AND original_transaction_id = \(id) ORDER BY app_user_id
                """
            ).prepared()
        ).map { try $0.decode("app_user_id", as: String.self) }
        for event in events {
            let users = event.kind == .userUnlinked ? unlinkedUsers.sorted() : linked
            let identity = eventIdentity(
                event.kind.rawValue, bundleID, environment.rawValue, id, previousStatus?.rawValue, subjectIdentity, event.reason,
                event.from, event.to, event.accessContinues.map { String($0) }, users.joined(separator: ","))
            try session.execute(
                PostgresQuery(
                    """
                    INSERT INTO webhook_events
                        (event_id, type, bundle_id, environment, original_transaction_id, app_user_ids, previous_status, subscription,
                         purchase, reason, from_product, to_product, access_continues)
                    VALUES ('evt_' || left(encode(sha256(convert_to(\(identity)::text || coalesce((
                                SELECT w.event_id FROM webhook_events w
                                WHERE w.environment = \(environment.rawValue) AND w.original_transaction_id = \(id)
                                ORDER BY w.id DESC LIMIT 1
                            ), ''), 'UTF8')), 'hex'), 32),
                            \(event.kind.rawValue), \(bundleID), \(environment.rawValue), \(id),
                            \(users)::text[], \(previousStatus?.rawValue), \(subscription)::jsonb, \(purchase)::jsonb,
                            \(event.reason), \(event.from), \(event.to), \(event.accessContinues))
                    """
                ).prepared())
        }
    }

    /// The text an event's id is derived from: its fields, the unit separator between them.
    ///
    /// An event id is `evt_` and the first 32 hex digits of the SHA-256 of this text followed
    /// by the id of the subject's previous event (a subscription's or purchase's, a user's
    /// entitlement events; none for `consent_rescinded`, which says the same each time).
    /// Applying the same facts again after a restore from backup therefore writes the same
    /// events under the same ids, and a receiver that deduplicates by id sees each change
    /// once; the chain keeps a change that comes back (renewal off, on, off again) a new event.
    static func eventIdentity(_ fields: String?...) -> String {
        fields.map { $0 ?? "" }.joined(separator: "\u{1F}")
    }
}
