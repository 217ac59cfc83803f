import Foundation
import Postgres

extension NotificationInbox {
    /// Claims up to `limit` due entries for one attempt each. A claim pushes the entry's
    /// `next_attempt_at` out by `lease`: if this process dies mid-attempt, the entry becomes
    /// due again after the lease and another worker takes it. `SKIP LOCKED` lets any number
    /// of workers and processes claim side by side without waiting on each other.
    ///
    /// Only entries without an unfinished claim are taken here. One whose last claim ended
    /// without an outcome (the process died while it was in flight, perhaps because of a
    /// neighbour) is a suspect, claimed alone with ``claimSuspect(lease:maxIsolatedDeaths:)``.
    public func claimDue(limit: Int, lease: Duration) async throws -> [ClaimedNotification] {
        try await client.query(
            PostgresQuery(
                """
                WITH due AS (
                    SELECT id, received_at FROM notifications
                    WHERE state IN ('pending', 'retrying') AND next_attempt_at <= now() AND unfinished_claims = 0
                    ORDER BY next_attempt_at, id
                    LIMIT \(limit)
                    FOR UPDATE SKIP LOCKED
                )
                UPDATE notifications AS n
                SET attempts = n.attempts + 1, unfinished_claims = 1, claimed_at = now(),
                    next_attempt_at = now() + make_interval(secs => \(lease.intervalSeconds)), updated_at = now()
                FROM due WHERE n.id = due.id AND n.received_at = due.received_at
                RETURNING \(unescaped: Self.claimedColumns)
                """
            ).prepared()
        ).map(ClaimedNotification.init(row:))
    }

    /// Whether a suspect is due: the worker then lets its attempts in flight end and runs
    /// the suspect alone. One look at a partial index.
    public func hasSuspectDue() async throws -> Bool {
        try await client.query(
            PostgresQuery(
                """
                SELECT EXISTS (
                    SELECT 1 FROM notifications
                    WHERE state IN ('pending', 'retrying') AND unfinished_claims > 0 AND next_attempt_at <= now()
                ) AS due
                """
            ).prepared()
        ).first?.decode("due") ?? false
    }

    /// Claims the first due suspect, for an attempt with nothing else in flight in this
    /// process, so that if the process dies again the death is this entry's own.
    ///
    /// A suspect that already stopped the process `maxIsolatedDeaths` times running alone is
    /// poison: it ends `dead` with an `abandoned` attempt instead, and the next suspect is
    /// looked at. Entries that died only beside others are never buried for it.
    public func claimSuspect(lease: Duration, maxIsolatedDeaths: Int = 3) async throws -> ClaimedNotification? {
        while true {
            let rows = try await client.query(
                PostgresQuery(
                    """
                    WITH due AS (
                        SELECT id, received_at, isolated_claims >= \(maxIsolatedDeaths) AS poisoned FROM notifications
                        WHERE state IN ('pending', 'retrying') AND unfinished_claims > 0 AND next_attempt_at <= now()
                        ORDER BY next_attempt_at, id
                        LIMIT 1
                        FOR UPDATE SKIP LOCKED
                    ), buried AS (
                        UPDATE notifications AS n
                        SET state = 'dead', unfinished_claims = 0, isolated_claims = 0, updated_at = now(),
                            last_error = 'stopped the worker ' || n.isolated_claims || ' times while it ran alone: every attempt ended '
                                || 'without an outcome (the process died); fix the cause, then `subscriptionctl notifications replay`, '
                                || 'or discard it'
                        FROM due WHERE n.id = due.id AND n.received_at = due.received_at AND due.poisoned
                        RETURNING n.id, n.received_at, n.attempts, n.claimed_at, n.last_error
                    ), abandoned AS (
                        INSERT INTO notification_attempts (notification_id, notification_received_at, attempt, started_at, outcome, error)
                        SELECT id, received_at, attempts, coalesce(claimed_at, now()), 'abandoned', last_error FROM buried
                        ON CONFLICT (notification_id, attempt, notification_received_at) DO UPDATE SET outcome = EXCLUDED.outcome, error = EXCLUDED.error,
                            finished_at = now()
                    ), claimed AS (
                        UPDATE notifications AS n
                        SET attempts = n.attempts + 1, unfinished_claims = n.unfinished_claims + 1,
                            isolated_claims = n.isolated_claims + 1, claimed_at = now(),
                            next_attempt_at = now() + make_interval(secs => \(lease.intervalSeconds)), updated_at = now()
                        FROM due WHERE n.id = due.id AND n.received_at = due.received_at AND NOT due.poisoned
                        RETURNING \(unescaped: Self.claimedColumns)
                    )
                    SELECT claimed.*, false AS buried FROM claimed
                    UNION ALL
                    SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, true FROM buried
                    """
                ).prepared())
            guard let row = rows.first else { return nil }
            if try row.decode("buried", as: Bool.self) { continue }
            return try ClaimedNotification(row: row)
        }
    }

    /// The columns a claim returns, in `ClaimedNotification(row:)`'s terms.
    static let claimedColumns: StaticString = """
        n.id, n.source, n.body::text AS body, n.bundle_id, n.environment, n.app_user_id, \
        n.attempts, n.claimed_at, n.received_at, n.receipt_removed_at
        """
}
