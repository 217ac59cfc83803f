import AppStore
import Foundation
import Postgres

/// One `notifications backfill` run: its window, where it is, and what it did so far.
public struct BackfillRun: Sendable {
    /// The run's id.
    public let id: Int64
    /// The pagination token of the next page (nil: the first page, or finished).
    public let paginationToken: String?
    /// Pages done, notifications stored, already stored, refused.
    public let pages: Int, stored: Int, duplicates: Int, refused: Int
    /// The end of the run's window.
    public let end: Date
    /// True when an interrupted run was picked up again.
    public let resumed: Bool
}

/// `backfill_runs`: resumable backfills of missed notifications.
public struct BackfillStore: Sendable {
    private let client: PostgresClient

    /// Creates the repository.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// The open run for this app, environment, start and filter — and end, when one is given
    /// (without one, a run stopped earlier is resumed with the end it had) — or a new one
    /// ending at `end` (default: now).
    public func open(
        bundleID: String, environment: AppStoreEnvironment, start: Date, end: Date?, onlyFailures: Bool
    ) async throws -> BackfillRun {
        try await client.withTransaction { session in
            if let row = try session.queryFirst(
                """
                SELECT id, pagination_token, pages, stored, duplicates, refused, end_date FROM backfill_runs
                WHERE bundle_id = \(bundleID) AND environment = \(environment.rawValue) AND start_date = \(start)
                  AND (\(end)::timestamptz IS NULL OR end_date = \(end)) AND only_failures = \(onlyFailures) AND finished_at IS NULL
                ORDER BY id DESC LIMIT 1
                FOR UPDATE
                """)
            {
                return try BackfillRun(row: row, resumed: true)
            }
            let end = end ?? Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            let row = try session.queryFirst(
                """
                INSERT INTO backfill_runs (bundle_id, environment, start_date, end_date, only_failures)
                VALUES (\(bundleID), \(environment.rawValue), \(start), \(end), \(onlyFailures))
                RETURNING id, pagination_token, pages, stored, duplicates, refused, end_date
                """)
            guard let row else { throw StoreError("backfill run was not created") }
            return try BackfillRun(row: row, resumed: false)
        }
    }

    /// Stores one page's notifications in the inbox and records the page done — the next
    /// token (nil finishes the run) and the page's counts — in one transaction, so a run
    /// stopped at any point resumes at a page whose entries and counts are both stored or
    /// both not. Returns the run after the page and the page's stored and duplicate counts.
    public func storePage(
        _ entries: [InboxEntry], refused: Int, next token: String?, of run: BackfillRun
    ) async throws -> (run: BackfillRun, stored: Int, duplicates: Int) {
        try await client.withTransaction { session in
            let results = try NotificationInbox.insertBatch(entries, in: session)
            let stored = results.filter { if case .accepted = $0 { true } else { false } }.count
            let duplicates = results.count - stored
            let row = try session.queryFirst(
                """
                UPDATE backfill_runs SET pagination_token = \(token), pages = pages + 1, stored = stored + \(stored),
                    duplicates = duplicates + \(duplicates), refused = refused + \(refused),
                    finished_at = CASE WHEN \(token == nil) THEN now() END
                WHERE id = \(run.id)
                RETURNING id, pagination_token, pages, stored, duplicates, refused, end_date
                """)
            guard let row else { throw StoreError("backfill run \(run.id) vanished") }
            return (try BackfillRun(row: row, resumed: run.resumed), stored, duplicates)
        }
    }
}

extension BackfillRun {
    init(row: PostgresRow, resumed: Bool) throws {
        self.init(
            id: try row.decode("id"), paginationToken: try row.decode("pagination_token"), pages: try row.decode("pages"),
            stored: try row.decode("stored"), duplicates: try row.decode("duplicates"), refused: try row.decode("refused"),
            end: try row.decode("end_date"), resumed: resumed)
    }
}
