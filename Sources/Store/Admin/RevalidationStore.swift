import AppStore
import Foundation
import Postgres

/// One subscription to re-verify: its key, app and stored receipt.
public struct RevalidationItem: Sendable {
    /// Production or Sandbox.
    public let environment: AppStoreEnvironment
    /// The subscription.
    public let originalTransactionID: String
    /// The app, whose shared secret verifies the receipt.
    public let bundleID: String
    /// `subscriptions.latest_receipt`; nil when none was ever stored.
    public let receipt: String?

    init(row: PostgresRow) throws {
        environment = try AppStoreEnvironment(row: row)
        originalTransactionID = try row.decode("original_transaction_id")
        bundleID = try row.decode("bundle_id")
        receipt = try row.decode("latest_receipt")
    }
}

/// A `revalidate --all` run: open until it went through every candidate once.
public struct RevalidationRun: Sendable {
    /// The run's id.
    public let id: Int64
    /// When it started; subscriptions revalidated since are done.
    public let startedAt: Date
    /// True when an interrupted run is being continued.
    public let resumed: Bool
    /// Subscriptions already revalidated in this run.
    public let done: Int
    /// Subscriptions with a stored receipt still to do.
    public let remaining: Int
}

/// Bookkeeping for `subscriptionctl revalidate` (Schema/0002_revalidation.sql): which
/// subscriptions to re-verify, and which a run has already done, so that a rerun resumes.
public struct RevalidationStore: Sendable {
    private let client: PostgresClient

    /// Creates the repository.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// Resumes the open run, or opens a new one; `restart` abandons an open run first.
    public func openRun(restart: Bool) async throws -> RevalidationRun {
        try await client.withTransaction { session in
            if restart {
                try session.execute("UPDATE revalidation_runs SET finished_at = now(), abandoned = true WHERE finished_at IS NULL")
            }
            var resumed = true
            var row = try session.queryFirst("SELECT id, started_at FROM revalidation_runs WHERE finished_at IS NULL FOR UPDATE")
            if row == nil {
                resumed = false
                row = try session.queryFirst("INSERT INTO revalidation_runs DEFAULT VALUES RETURNING id, started_at")
            }
            guard let row else { throw StoreError("could not open a revalidation run") }
            let id: Int64 = try row.decode("id")
            // Compared in SQL with the stored value: a round trip through Date could move it by a microsecond.
            let counts = try session.queryFirst(
                """
                SELECT count(*) FILTER (WHERE revalidated_at >= r.started_at) AS done,
                       count(*) FILTER (WHERE revalidated_at IS NULL OR revalidated_at < r.started_at) AS remaining
                FROM subscriptions, (SELECT started_at FROM revalidation_runs WHERE id = \(id)) AS r
                WHERE latest_receipt IS NOT NULL
                """)
            return RevalidationRun(
                id: id, startedAt: try row.decode("started_at"), resumed: resumed,
                done: try counts?.decode("done") ?? 0, remaining: try counts?.decode("remaining") ?? 0)
        }
    }

    /// The next candidates of a run after `cursor` (nil: from the start), in key order.
    /// Subscriptions revalidated in this run are skipped.
    public func nextBatch(of run: RevalidationRun, after cursor: RevalidationItem?, limit: Int) async throws -> [RevalidationItem] {
        let environment = cursor?.environment.rawValue ?? ""
        let id = cursor?.originalTransactionID ?? ""
        return try await client.query(
            """
            SELECT environment, original_transaction_id, bundle_id, latest_receipt FROM subscriptions
            WHERE latest_receipt IS NOT NULL
              AND (revalidated_at IS NULL
                   OR revalidated_at < (SELECT started_at FROM revalidation_runs WHERE id = \(run.id)))
              AND (environment, original_transaction_id) > (\(environment), \(id))
            ORDER BY environment, original_transaction_id
            LIMIT \(limit)
            """
        ).map(RevalidationItem.init(row:))
    }

    /// Closes a run that went through every candidate.
    public func finish(_ run: RevalidationRun) async throws {
        try await client.execute("UPDATE revalidation_runs SET finished_at = now() WHERE id = \(run.id) AND finished_at IS NULL")
    }

    /// The subscriptions with these original transaction ids (every environment), and the ids
    /// that match none.
    public func items(originalTransactionIDs ids: [String]) async throws -> (found: [RevalidationItem], unknown: [String]) {
        let found = try await client.query(
            """
            SELECT environment, original_transaction_id, bundle_id, latest_receipt FROM subscriptions
            WHERE original_transaction_id = ANY(\(ids)::text[])
            ORDER BY environment, original_transaction_id
            """
        ).map(RevalidationItem.init(row:))
        let known = Set(found.map(\.originalTransactionID))
        var seen = Set<String>()
        let unknown = ids.filter { !known.contains($0) && seen.insert($0).inserted }
        return (found, unknown)
    }

    /// Records a final answer for a subscription inside the caller's transaction.
    public static func record(_ item: RevalidationItem, outcome: String, in session: PostgresSession) throws {
        try session.execute(
            """
            UPDATE subscriptions SET revalidated_at = now(), revalidation_outcome = \(outcome)
            WHERE environment = \(item.environment.rawValue) AND original_transaction_id = \(item.originalTransactionID)
            """)
    }

    /// Records a final answer for a subscription.
    public func record(_ item: RevalidationItem, outcome: String) async throws {
        try await client.withConnection { session in try Self.record(item, outcome: outcome, in: session) }
    }
}
