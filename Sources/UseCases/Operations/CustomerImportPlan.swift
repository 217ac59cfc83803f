import CatalogFiles
import Store

/// An import file read and checked, before anything is asked of Apple or the database.
public struct CustomerImportPlan: Sendable {
    /// The file's name as given, for messages and the journal.
    public let fileName: String
    /// The file's SHA-256 (lower-case hex): what names its run in the journal.
    public let fileSHA256: String
    /// The app every row is imported into.
    public let bundleID: String
    /// The file's rows, refused ones included.
    public let rows: [CustomerImportRow]

    /// The rows refused before anything is asked, with why.
    public var refusedRows: [ImportRowOutcome] {
        rows.compactMap { row in
            guard case .refused(let reason) = row.content else { return nil }
            return ImportRowOutcome(line: row.line, kind: .refused, reason: reason)
        }
    }

    /// How many rows would be looked up with Apple.
    public var lookups: Int { rows.count - refusedRows.count }
}

/// What an import came to over its whole run (earlier, interrupted processes included).
public struct CustomerImportSummary: Sendable {
    /// Rows whose purchase was applied and linked.
    public let imported: Int
    /// Rows whose user already held the purchase.
    public let alreadyThere: Int
    /// Rows refused, by line, with why.
    public let refused: [ImportRowOutcome]
    /// Rows Apple did not answer for now: not journaled, so a rerun with `--resume` asks again.
    public let notDone: [ImportRowOutcome]

    /// The summary of the journaled `outcomes` and the rows `notDone` in this process.
    public init(outcomes: [ImportRowOutcome], notDone: [ImportRowOutcome]) {
        imported = outcomes.filter { $0.kind == .imported }.count
        alreadyThere = outcomes.filter { $0.kind == .alreadyThere }.count
        refused = outcomes.filter { $0.kind == .refused }
        self.notDone = notDone
    }

    /// True when every row was imported or already there.
    public var isComplete: Bool { refused.isEmpty && notDone.isEmpty }
}
