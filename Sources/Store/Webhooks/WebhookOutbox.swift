import AppStore
import Foundation
import Postgres
import Subscriptions

/// The `webhook_events` outbox: claims for delivery and fenced outcomes.
public struct WebhookOutbox: Sendable {
    private let client: PostgresClient

    /// Creates the repository.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// Claims up to `limit` due events for one attempt each, at most one per subscription
    /// (or, for entitlement events, per user) and only the oldest unfinished one of it, so
    /// events of one subscription go out in order while different subscriptions proceed side by side. A claim pushes
    /// `next_attempt_at` out by `lease`: if this process dies mid-delivery, the event is due
    /// again after the lease (at least once). Events of apps outside `bundleIDs` are not claimed.
    public func claimDue(limit: Int, lease: Duration, bundleIDs: [String]) async throws -> [ClaimedWebhookEvent] {
        try await client.withTransaction { session in
            try session.query(
                PostgresQuery(
                    """
                    UPDATE webhook_events AS w
                    SET attempts = w.attempts + 1, claimed_at = now(), next_attempt_at = now() + make_interval(secs => \(lease.intervalSeconds)),
                        updated_at = now()
                    FROM (
                        SELECT id FROM webhook_events AS e
                        WHERE state IN ('pending', 'retrying') AND next_attempt_at <= now() AND bundle_id = ANY(\(bundleIDs)::text[])
                          AND NOT EXISTS (
                              SELECT 1 FROM webhook_events AS earlier
                              WHERE earlier.environment = e.environment AND earlier.original_transaction_id = e.original_transaction_id
                                AND earlier.id < e.id AND earlier.state IN ('pending', 'retrying'))
                          AND NOT EXISTS (
                              SELECT 1 FROM webhook_events AS earlier
                              WHERE earlier.app_user_id = e.app_user_id
                                AND earlier.id < e.id AND earlier.state IN ('pending', 'retrying'))
                        ORDER BY next_attempt_at, id
                        LIMIT \(limit)
                        FOR UPDATE SKIP LOCKED
                    ) AS due
                    WHERE w.id = due.id
                    RETURNING \(unescaped: WebhookEvent.columns), w.attempts, w.claimed_at
                    """
                ).prepared()
            ).map { row in
                ClaimedWebhookEvent(
                    event: try WebhookEvent(row: row), attempt: try row.decode("attempts"),
                    claimedAt: try row.decode("claimed_at"))
            }
        }
    }

    /// Ends `dead` every unfinished event of an app outside `bundleIDs` (no webhook URL is
    /// configured for it here), so they neither pile up nor flood a URL configured later
    /// unasked; `webhooks replay --dead` sends them. Returns how many.
    @discardableResult
    public func buryUnconfigured(bundleIDs: [String]) async throws -> Int {
        try await client.withConnection { session in
            try session.execute(
                PostgresQuery(
                    """
                    UPDATE webhook_events SET state = 'dead', updated_at = now(),
                        last_error = 'no webhook URL is configured for ' || bundle_id || ': configure one, then `subscriptionctl webhooks replay`'
                    WHERE state IN ('pending', 'retrying') AND NOT (bundle_id = ANY(\(bundleIDs)::text[]))
                      AND next_attempt_at <= now()
                    """
                ).prepared())
        }
    }

    /// Records a 2xx. Returns false (and writes nothing) when the claim is stale.
    @discardableResult
    public func markDelivered(_ claim: ClaimedWebhookEvent, status: Int) async throws -> Bool {
        try await finish(claim, state: .delivered, nextAttemptAt: nil, status: status, reason: nil)
    }

    /// Schedules another attempt. Returns false (and writes nothing) when the claim is stale.
    @discardableResult
    public func scheduleRetry(_ claim: ClaimedWebhookEvent, at next: Date, status: Int?, reason: String) async throws -> Bool {
        try await finish(claim, state: .retrying, nextAttemptAt: next, status: status, reason: reason)
    }

    /// Gives up on an event. Returns false (and writes nothing) when the claim is stale.
    @discardableResult
    public func markDead(_ claim: ClaimedWebhookEvent, status: Int?, reason: String) async throws -> Bool {
        try await finish(claim, state: .dead, nextAttemptAt: nil, status: status, reason: reason)
    }

    /// Fenced like the inbox: only the claim that made the attempt (same attempt number,
    /// event still unfinished) may write its outcome; a replay or a newer claim wins.
    private func finish(
        _ claim: ClaimedWebhookEvent, state: WebhookEventState, nextAttemptAt: Date?, status: Int?, reason: String?
    ) async throws -> Bool {
        let delivered = state == .delivered
        return try await client.withConnection { session in
            try session.execute(
                PostgresQuery(
                    """
                    UPDATE webhook_events SET state = \(state.rawValue), next_attempt_at = coalesce(\(nextAttemptAt), next_attempt_at),
                        last_error = \(reason), last_status = \(status),
                        delivered_at = CASE WHEN \(delivered) THEN now() ELSE delivered_at END, updated_at = now()
                    WHERE id = \(claim.event.id) AND attempts = \(claim.attempt) AND state IN ('pending', 'retrying')
                    """
                ).prepared()) == 1
        }
    }
}

extension WebhookEvent {
    /// The columns `init(row:)` reads (prefixed for the claim's UPDATE … FROM).
    static let columns: StaticString = """
        w.id, w.event_id, w.type, w.bundle_id, w.environment, w.original_transaction_id,
        to_json(w.app_user_ids)::text AS app_user_ids, w.previous_status, w.subscription::text AS subscription,
        w.purchase::text AS purchase, w.entitlement::text AS entitlement, w.app_transaction_id, w.created_at, w.reason, w.from_product, w.to_product, w.access_continues,
        coalesce(w.replayed_at, w.created_at) AS retry_window_start
        """

    init(row: PostgresRow) throws {
        let typeText: String = try row.decode("type")
        let environmentText: String = try row.decode("environment")
        guard let type = WebhookEventType(rawValue: typeText), let environment = AppStoreEnvironment(rawValue: environmentText) else {
            throw StoreError("unknown type or environment in webhook_events row")
        }
        let users: String = try row.decode("app_user_ids")
        self.init(
            id: try row.decode("id"), eventID: try row.decode("event_id"), type: type, bundleID: try row.decode("bundle_id"),
            environment: environment, originalTransactionID: try row.decode("original_transaction_id"),
            appUserIDs: try JSONDecoder().decode([String].self, from: Data(users.utf8)),
            previousStatus: try row.decode("previous_status", as: String?.self).flatMap(SubscriptionStatus.init(rawValue:)),
            detail: LifecycleEvent(
                type, reason: try row.decode("reason"), from: try row.decode("from_product"), to: try row.decode("to_product"),
                accessContinues: try row.decode("access_continues")),
            subscription: try (try row.decode("subscription", as: String?.self)).map { try StoredSubscriptionState.decode($0).view },
            purchase: try (try row.decode("purchase", as: String?.self)).map { try StoredPurchaseState.decode($0).summary },
            entitlement: try (try row.decode("entitlement", as: String?.self)).map { try StoredEntitlementState.decode($0).change },
            appTransactionID: try row.decode("app_transaction_id"), createdAt: try row.decode("created_at"),
            retryWindowStart: try row.decode("retry_window_start"))
    }
}

extension WebhookOutbox {
    /// How many events are unfinished (pending or retrying) and when the oldest was created: the lag.
    public func backlog() async throws -> (unfinished: Int, oldestCreatedAt: Date?) {
        try await client.countAndOldest(
            PostgresQuery(
                """
                SELECT count(*) AS n, min(created_at) AS oldest FROM webhook_events WHERE state IN ('pending', 'retrying')
                """))
    }
}
