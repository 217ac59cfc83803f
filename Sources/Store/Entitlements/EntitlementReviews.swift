import AppStore
import Foundation
import Postgres
import Subscriptions

/// `entitlement_changed` (DESIGN.md, "Lifecycle events"): each user's entitlements are
/// reviewed when what they hold changes and when a source of theirs ends with no new fact
/// (a subscription period, a grace period, a pass, a trial, a grant), and every entitlement
/// that began or ended since the last review becomes an event.
///
/// A change of holdings marks the user due now (``markDue(appUserIDs:in:)``, in the
/// transaction of the change); a review leaves the user due when their entitlements next
/// change (``EntitlementRule/Evaluation/nextChange``), or not at all. Reviews claim due
/// users `FOR UPDATE SKIP LOCKED`, oldest first, so several processes never review one user
/// at once; a change committed during a review marks the user due again (the mark waits for
/// the review's lock, then sets `due_at` to now), so nothing is missed.
public struct EntitlementReviews: Sendable {
    private let client: PostgresClient
    private let policies: EntitlementPolicies
    private let webhookEvents: WebhookEventSelection
    private let apps: [String]

    /// Reviews under the apps' entitlement `policies`, writing the events `webhookEvents`
    /// selects; an entitlement no product grants is reported to every app of `apps`.
    public init(
        client: PostgresClient, policies: EntitlementPolicies = EntitlementPolicies(),
        webhookEvents: WebhookEventSelection = .everything, apps: [String] = []
    ) {
        self.client = client
        self.policies = policies
        self.webhookEvents = webhookEvents
        self.apps = apps
    }

    /// Reviews up to `limit` users due at `now`, oldest due first; returns how many were claimed.
    @discardableResult
    public func review(limit: Int, now: Date = Date()) async throws -> Int {
        try await client.withTransaction { [policies, webhookEvents, apps] session in
            let users = try session.query(
                PostgresQuery(
                    """
                    SELECT app_user_id FROM entitlement_reviews WHERE due_at <= \(now)
                    ORDER BY due_at LIMIT \(limit) FOR UPDATE SKIP LOCKED
                    """
                ).prepared()
            ).map { try $0.decode("app_user_id", as: String.self) }
            guard !users.isEmpty else { return 0 }
            let catalog = try ProductStore.catalog(in: session)
            let reads = try SubscriptionReader.subscriberReads(appUserIDs: users, now: now, in: session)
            var previous: [String: Set<String>] = [:]
            for row in try session.query(
                PostgresQuery(
                    """
                    SELECT app_user_id, entitlement_id FROM user_entitlements WHERE app_user_id = ANY(\(users)::text[])
                    """))
            {
                previous[try row.decode("app_user_id"), default: []].insert(try row.decode("entitlement_id"))
            }
            for user in users {
                let evaluation = EntitlementRule.evaluate(
                    reads[user]?.holdings ?? CustomerHoldings(), catalog: catalog, policy: policies.policy(for:), at: now)
                let changes = EntitlementChanges.changes(previouslyActive: previous[user] ?? [], now: evaluation.states)
                if !changes.isEmpty {
                    try WebhookOutbox.recordEntitlementChanges(
                        changes, appUserID: user, bundleIDs: { EntitlementChanges.bundleIDs(of: $0, catalog: catalog, apps: apps) },
                        webhookEvents: webhookEvents, in: session)
                    try Self.replaceActive(evaluation.states.filter(\.value.active).map(\.key), of: user, in: session)
                }
                try Self.scheduleNext(evaluation.nextChange, of: user, in: session)
            }
            return users.count
        }
    }

    /// How far behind the reviews are: users due at `now`, and the oldest due time.
    public func backlog(now: Date = Date()) async throws -> (due: Int, oldestDueAt: Date?) {
        try await client.countAndOldest(
            PostgresQuery(
                """
                SELECT count(*) AS n, min(due_at) AS oldest FROM entitlement_reviews WHERE due_at <= \(now)
                """))
    }

    /// Marks `appUserIDs` due for review at `now` (the change's time, by the clock reviews
    /// use), inside the caller's transaction (the one that changed what they hold).
    static func markDue(appUserIDs: [String], now: Date = Date(), in session: PostgresSession) throws {
        // No subscription or purchase: the environment selects nothing.
        try markDue(linkedTo: .production, originalTransactionIDs: [], alsoUsers: appUserIDs, now: now, in: session)
    }

    /// Marks due at `now` the users linked to the subscriptions or purchases `ids` of
    /// `environment`, and `alsoUsers` (those who just lost one), inside the caller's
    /// transaction, in one statement. Users are locked in sorted order, so two marks cannot deadlock.
    static func markDue(
        linkedTo environment: AppStoreEnvironment, originalTransactionIDs ids: [String], alsoUsers: [String], now: Date,
        in session: PostgresSession
    ) throws {
        guard !ids.isEmpty || !alsoUsers.isEmpty else { return }
        try session.execute(
            PostgresQuery(
                """
                INSERT INTO entitlement_reviews (app_user_id, due_at)
                SELECT u, \(now)::timestamptz FROM (
                    SELECT app_user_id AS u FROM subscribers
                    WHERE environment = \(environment.rawValue) AND original_transaction_id = ANY(\(ids)::text[])
                    UNION
                    SELECT unnest(\(alsoUsers)::text[])
                ) users ORDER BY u
                ON CONFLICT (app_user_id) DO UPDATE SET due_at = least(entitlement_reviews.due_at, excluded.due_at)
                """))  // not prepared: planned for its keys (see `FactStore.apply`)
    }

    /// Forgets `appUserID`'s baseline and review, inside the caller's transaction (the
    /// subscriber's removal): the review row first, so a review in progress finishes first.
    static func forget(appUserID: String, in session: PostgresSession) throws {
        try session.execute(PostgresQuery("DELETE FROM entitlement_reviews WHERE app_user_id = \(appUserID)").prepared())
        try session.execute(PostgresQuery("DELETE FROM user_entitlements WHERE app_user_id = \(appUserID)").prepared())
    }

    /// Stores `active` as the user's entitlements of this review.
    private static func replaceActive(_ active: [String], of user: String, in session: PostgresSession) throws {
        try session.execute(PostgresQuery("DELETE FROM user_entitlements WHERE app_user_id = \(user)").prepared())
        guard !active.isEmpty else { return }
        try session.execute(
            PostgresQuery(
                """
                INSERT INTO user_entitlements (app_user_id, entitlement_id) SELECT \(user), unnest(\(active.sorted())::text[])
                """
            ).prepared())
    }

    /// Leaves the user due at `next`, or removes the review when nothing lies ahead.
    private static func scheduleNext(_ next: Date?, of user: String, in session: PostgresSession) throws {
        if let next {
            try session.execute(PostgresQuery("UPDATE entitlement_reviews SET due_at = \(next) WHERE app_user_id = \(user)").prepared())
        } else {
            try session.execute(PostgresQuery("DELETE FROM entitlement_reviews WHERE app_user_id = \(user)").prepared())
        }
    }
}
