import Foundation
import Postgres

/// Whose timeline: a customer's, or one purchase's.
public enum TimelineSubject: Sendable, Hashable {
    /// Everything about the purchases linked to the user (in every environment), the user's
    /// queued receipts, entitlement events and audit rows.
    case customer(appUserID: String)
    /// Everything about one purchase.
    case purchase(originalTransactionID: String, environment: String)
}

extension CustomerQueries {
    /// One page of `subject`'s timeline: at most `limit` items after `before` (from the newest
    /// when nil), newest first, and the cursor of the next page when there is one.
    ///
    /// One statement: each source is read per linked purchase (or per user) newest first
    /// through an index in the timeline's order and stops after `limit + 1` rows, so a page
    /// reads a bounded number of rows however long the history; the sources are then merged.
    public func timeline(of subject: TimelineSubject, before: TimelineCursor?, limit: Int) async throws -> TimelinePage {
        guard limit > 0 else { return .empty }
        let appUserID: String?
        let purchase: (originalTransactionID: String, environment: String)?
        switch subject {
        case .customer(let id):
            appUserID = id
            purchase = nil
        case .purchase(let id, let environment):
            appUserID = nil
            purchase = (id, environment)
        }
        // Text holding NUL is refused by PostgreSQL; it names nothing stored.
        let values = [appUserID, purchase?.originalTransactionID, purchase?.environment, before?.key].compactMap { $0 }
        guard !values.contains(where: { $0.utf8.contains(0) }) else { return .empty }
        let rows = try await client.query(
            Self.timelineQuery(
                appUserID: appUserID, originalTransactionID: purchase?.originalTransactionID, environment: purchase?.environment,
                before: before, limit: limit + 1))
        var items = try rows.map(TimelineItem.init(row:))
        guard items.count > limit else { return TimelinePage(items: items, next: nil) }
        items.removeLast(items.count - limit)
        return TimelinePage(items: items, next: items.last?.cursor)
    }

    // Each source's condition "after the cursor" is `at <= A AND (at < A OR rank < R OR (rank
    // = R AND key < K))`: its first part bounds the index scan, the rest only sorts out ties.
    // With no cursor (A null) the planner drops it, as it drops a branch whose user is null.
    private static func timelineQuery(
        appUserID: String?, originalTransactionID: String?, environment: String?, before: TimelineCursor?, limit: Int
    ) -> PostgresQuery {
        let at = before?.at
        let rank = before?.kind.rank
        let key = before?.key
        return """
            WITH linked AS MATERIALIZED (
                SELECT environment, original_transaction_id FROM subscribers WHERE app_user_id = \(appUserID)::text
                UNION
                SELECT \(environment)::text, \(originalTransactionID)::text WHERE \(originalTransactionID)::text IS NOT NULL
            )
            SELECT kind_rank, at, key, ref_id, related_id, environment, original_transaction_id, transaction_id, subject, subtype,
                   state, origin, note, attempts, until, flag
            FROM (
                SELECT x.* FROM linked l CROSS JOIN LATERAL (
                    SELECT 3 AS kind_rank, n.received_at AS at, lpad(n.id::text, 20, '0') AS key, n.id AS ref_id,
                           NULL::bigint AS related_id, n.environment, n.original_transaction_id, NULL::text AS transaction_id,
                           n.notification_type AS subject, n.notification_subtype AS subtype, n.state, n.source AS origin,
                           n.last_error AS note, n.attempts, NULL::timestamptz AS until, NULL::boolean AS flag
                    FROM notifications n
                    WHERE n.original_transaction_id = l.original_transaction_id AND n.environment = l.environment
                      AND (\(at)::timestamptz IS NULL OR (n.received_at <= \(at)::timestamptz AND (n.received_at < \(at)::timestamptz
                           OR 3 < \(rank)::integer OR (3 = \(rank)::integer AND lpad(n.id::text, 20, '0') COLLATE "C" < \(key)::text))))
                    ORDER BY n.received_at DESC, n.id DESC LIMIT \(limit)
                ) x
                UNION
                (SELECT 3, n.received_at, lpad(n.id::text, 20, '0'), n.id, NULL, n.environment, n.original_transaction_id, NULL,
                        n.notification_type, n.notification_subtype, n.state, n.source, n.last_error, n.attempts, NULL, NULL
                 FROM notifications n
                 WHERE n.app_user_id = \(appUserID)::text
                   AND (\(at)::timestamptz IS NULL OR (n.received_at <= \(at)::timestamptz AND (n.received_at < \(at)::timestamptz
                        OR 3 < \(rank)::integer OR (3 = \(rank)::integer AND lpad(n.id::text, 20, '0') COLLATE "C" < \(key)::text))))
                 ORDER BY n.received_at DESC, n.id DESC LIMIT \(limit))
                UNION
                SELECT x.* FROM linked l CROSS JOIN LATERAL (
                    SELECT 1, t.purchase_date, t.environment || ':' || t.transaction_id, NULL::bigint, NULL::bigint, t.environment,
                           t.original_transaction_id, t.transaction_id, t.product_id, t.product_type,
                           CASE WHEN t.cancellation_date IS NOT NULL THEN 'revoked' WHEN t.is_upgraded THEN 'upgraded' END,
                           t.source, t.cancellation_reason, NULL::integer, t.expires_date, t.is_trial_period
                    FROM transactions t
                    WHERE t.environment = l.environment AND t.original_transaction_id = l.original_transaction_id
                      AND (\(at)::timestamptz IS NULL OR (t.purchase_date <= \(at)::timestamptz AND (t.purchase_date < \(at)::timestamptz
                           OR 1 < \(rank)::integer
                           OR (1 = \(rank)::integer AND (t.environment || ':' || t.transaction_id) COLLATE "C" < \(key)::text))))
                    ORDER BY t.purchase_date DESC, t.transaction_id COLLATE "C" DESC LIMIT \(limit)
                ) x
                UNION
                SELECT 2, r.observed_at, r.environment || ':' || r.original_transaction_id, NULL, NULL, r.environment,
                       r.original_transaction_id, NULL, r.auto_renew_product_id, r.expiration_intent,
                       CASE r.auto_renew_status WHEN true THEN 'on' WHEN false THEN 'off' END, NULL, NULL, NULL,
                       r.grace_period_expires_date, r.is_in_billing_retry_period
                FROM linked l JOIN renewal_info r ON r.environment = l.environment AND r.original_transaction_id = l.original_transaction_id
                WHERE (\(at)::timestamptz IS NULL OR (r.observed_at <= \(at)::timestamptz AND (r.observed_at < \(at)::timestamptz
                       OR 2 < \(rank)::integer
                       OR (2 = \(rank)::integer AND (r.environment || ':' || r.original_transaction_id) COLLATE "C" < \(key)::text))))
                UNION
                SELECT x.* FROM linked l CROSS JOIN LATERAL (
                    SELECT 4, s.occurred_at, lpad(s.id::text, 20, '0'), s.id, s.notification_id, s.environment, s.original_transaction_id,
                           NULL::text, s.new_status, s.old_status, NULL::text, NULL::text, NULL::text, NULL::integer, NULL::timestamptz,
                           NULL::boolean
                    FROM status_events s
                    WHERE s.environment = l.environment AND s.original_transaction_id = l.original_transaction_id
                      AND (\(at)::timestamptz IS NULL OR (s.occurred_at <= \(at)::timestamptz AND (s.occurred_at < \(at)::timestamptz
                           OR 4 < \(rank)::integer OR (4 = \(rank)::integer AND lpad(s.id::text, 20, '0') COLLATE "C" < \(key)::text))))
                    ORDER BY s.occurred_at DESC, s.id DESC LIMIT \(limit)
                ) x
                UNION
                SELECT x.* FROM linked l CROSS JOIN LATERAL (
                    SELECT 5, w.created_at, lpad(w.id::text, 20, '0'), w.id, NULL::bigint, w.environment, w.original_transaction_id,
                           NULL::text, w.type, NULL::text, w.state, w.event_id, w.last_error, w.attempts, NULL::timestamptz, NULL::boolean
                    FROM webhook_events w
                    WHERE w.environment = l.environment AND w.original_transaction_id = l.original_transaction_id
                      AND (\(at)::timestamptz IS NULL OR (w.created_at <= \(at)::timestamptz AND (w.created_at < \(at)::timestamptz
                           OR 5 < \(rank)::integer OR (5 = \(rank)::integer AND lpad(w.id::text, 20, '0') COLLATE "C" < \(key)::text))))
                    ORDER BY w.created_at DESC, w.id DESC LIMIT \(limit)
                ) x
                UNION
                (SELECT 5, w.created_at, lpad(w.id::text, 20, '0'), w.id, NULL, w.environment, w.original_transaction_id, NULL, w.type,
                        NULL, w.state, w.event_id, w.last_error, w.attempts, NULL, NULL
                 FROM webhook_events w
                 WHERE w.app_user_id = \(appUserID)::text
                   AND (\(at)::timestamptz IS NULL OR (w.created_at <= \(at)::timestamptz AND (w.created_at < \(at)::timestamptz
                        OR 5 < \(rank)::integer OR (5 = \(rank)::integer AND lpad(w.id::text, 20, '0') COLLATE "C" < \(key)::text))))
                 ORDER BY w.created_at DESC, w.id DESC LIMIT \(limit))
                UNION
                (SELECT 6, a.occurred_at, lpad(a.id::text, 20, '0'), a.id, NULL, NULL, NULL, NULL, a.action, NULL, NULL, a.actor,
                        (SELECT string_agg(d.key || ': ' || d.value, ', ' ORDER BY d.key) FROM jsonb_each_text(a.detail) AS d),
                        NULL, NULL, NULL
                 FROM audit_log a
                 WHERE a.app_user_id = \(appUserID)::text
                   AND (\(at)::timestamptz IS NULL OR (a.occurred_at <= \(at)::timestamptz AND (a.occurred_at < \(at)::timestamptz
                        OR 6 < \(rank)::integer OR (6 = \(rank)::integer AND lpad(a.id::text, 20, '0') COLLATE "C" < \(key)::text))))
                 ORDER BY a.occurred_at DESC, a.id DESC LIMIT \(limit))
            ) AS items
            ORDER BY at DESC, kind_rank DESC, key COLLATE "C" DESC
            LIMIT \(limit)
            """
    }
}
