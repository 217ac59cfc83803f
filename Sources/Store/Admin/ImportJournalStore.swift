import Foundation
import Postgres

/// One `subscriptionctl import` run: the file it reads (by SHA-256) and when it started.
public struct ImportRun: Sendable, Equatable {
    public let id: Int64
    public let fileSHA256: String
    public let fileName: String
    public let bundleID: String
    public let rows: Int
    public let startedAt: Date
    /// Rows whose outcome is journaled.
    public let done: Int

    /// A run as its journal holds it.
    public init(id: Int64, fileSHA256: String, fileName: String, bundleID: String, rows: Int, startedAt: Date, done: Int) {
        self.id = id
        self.fileSHA256 = fileSHA256
        self.fileName = fileName
        self.bundleID = bundleID
        self.rows = rows
        self.startedAt = startedAt
        self.done = done
    }
}

/// How one imported row ended, as journaled.
public struct ImportRowOutcome: Sendable, Equatable {
    /// `imported`, `already_there` or `refused`.
    public enum Kind: String, Sendable {
        case imported
        case alreadyThere = "already_there"
        case refused
    }

    public let line: Int
    public let kind: Kind
    /// Why a refused row was refused.
    public let reason: String?

    /// The outcome of the row on `line`.
    public init(line: Int, kind: Kind, reason: String? = nil) {
        self.line = line
        self.kind = kind
        self.reason = reason
    }
}

/// `import_runs` and `import_rows`: the journal that lets an interrupted import resume, and
/// the one question the import asks of the facts (is this user linked to this purchase already).
public struct ImportJournalStore: Sendable {
    private let client: PostgresClient

    /// Creates the repository.
    public init(client: PostgresClient) {
        self.client = client
    }

    /// The runs not finished nor abandoned, newest first.
    public func unfinishedRuns() async throws -> [ImportRun] {
        try await client.query(
            """
            SELECT r.id, r.file_sha256, r.file_name, r.bundle_id, r.rows, r.started_at,
                   (SELECT count(*) FROM import_rows o WHERE o.run_id = r.id)::integer AS done
            FROM import_runs r WHERE r.finished_at IS NULL AND r.abandoned_at IS NULL
            ORDER BY r.id DESC
            """
        ).map(ImportRun.init(row:))
    }

    /// Starts a run of the file `fileSHA256`, first abandoning an unfinished run of the same
    /// file when `replacingUnfinished` (else one existing is a `StoreError`, by the unique index).
    public func startRun(
        fileSHA256: String, fileName: String, bundleID: String, rows: Int, replacingUnfinished: Bool
    ) async throws -> ImportRun {
        try await client.withTransaction { session in
            if replacingUnfinished {
                try session.execute(
                    """
                    UPDATE import_runs SET abandoned_at = now()
                    WHERE file_sha256 = \(fileSHA256) AND finished_at IS NULL AND abandoned_at IS NULL
                    """)
            }
            guard
                let row = try session.queryFirst(
                    """
                    INSERT INTO import_runs (file_sha256, file_name, bundle_id, rows)
                    VALUES (\(fileSHA256), \(fileName), \(bundleID), \(rows))
                    RETURNING id, file_sha256, file_name, bundle_id, rows, started_at, 0 AS done
                    """)
            else { throw StoreError("import run was not created") }
            return try ImportRun(row: row)
        }
    }

    /// Every outcome journaled for `runID`, by line.
    public func outcomes(runID: Int64) async throws -> [ImportRowOutcome] {
        try await client.query(
            "SELECT line, outcome, reason FROM import_rows WHERE run_id = \(runID) ORDER BY line"
        ).map { row in
            let text: String = try row.decode("outcome")
            guard let kind = ImportRowOutcome.Kind(rawValue: text) else { throw StoreError("import_rows holds outcome \(text)") }
            return ImportRowOutcome(line: try row.decode("line"), kind: kind, reason: try row.decode("reason"))
        }
    }

    /// Journals one row's outcome (a row journaled already keeps its first).
    public func record(_ outcome: ImportRowOutcome, runID: Int64) async throws {
        try await client.execute(
            """
            INSERT INTO import_rows (run_id, line, outcome, reason)
            VALUES (\(runID), \(outcome.line), \(outcome.kind.rawValue), \(outcome.reason))
            ON CONFLICT (run_id, line) DO NOTHING
            """)
    }

    /// Marks the run finished: every row has its outcome.
    public func finish(runID: Int64) async throws {
        try await client.execute("UPDATE import_runs SET finished_at = now() WHERE id = \(runID) AND finished_at IS NULL")
    }

    /// Whether `appUserID` is linked, in `bundleID`, to the purchase `transactionID` is a
    /// transaction (or the original transaction) of, in any environment.
    public func isLinked(appUserID: String, transactionID: String, bundleID: String) async throws -> Bool {
        try await client.query(
            """
            SELECT EXISTS (
                SELECT 1 FROM subscribers s
                WHERE s.app_user_id = \(appUserID) AND s.bundle_id = \(bundleID)
                  AND (s.original_transaction_id = \(transactionID)
                       OR (s.environment, s.original_transaction_id) IN (
                           SELECT t.environment, t.original_transaction_id FROM transactions t
                           WHERE t.environment IN ('Production', 'Sandbox', 'Xcode') AND t.transaction_id = \(transactionID)))
            ) AS linked
            """
        ).first?.decode("linked") ?? false
    }
}

extension ImportRun {
    init(row: PostgresRow) throws {
        self.init(
            id: try row.decode("id"), fileSHA256: try row.decode("file_sha256"), fileName: try row.decode("file_name"),
            bundleID: try row.decode("bundle_id"), rows: try row.decode("rows"), startedAt: try row.decode("started_at"),
            done: try row.decode("done"))
    }
}
