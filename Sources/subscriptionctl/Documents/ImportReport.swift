import Foundation
import Store
import UseCases

/// What `import` prints: the summary of a run, or what a dry run would do.
enum ImportReport {
    /// `imported N, already there N, refused N`, then each refused row as `line L: reason`.
    static func summary(_ summary: CustomerImportSummary, of plan: CustomerImportPlan, json: Bool) throws {
        if json {
            try Output.json(
                ImportDocument(
                    file: plan.fileName, fileSHA256: plan.fileSHA256, bundleID: plan.bundleID, imported: summary.imported,
                    alreadyThere: summary.alreadyThere, refused: summary.refused.map(RowDocument.init),
                    notDone: summary.notDone.map(RowDocument.init)))
            return
        }
        Output.line("imported \(summary.imported), already there \(summary.alreadyThere), refused \(summary.refused.count)")
        for row in summary.refused { Output.line("line \(row.line): \(row.reason ?? "refused")") }
        if !summary.notDone.isEmpty {
            Output.line("not done \(summary.notDone.count) (Apple did not answer; rerun with --resume)")
            for row in summary.notDone { Output.line("line \(row.line): \(row.reason ?? "no answer")") }
        }
    }

    /// What the import of `plan` would do; nothing was asked or changed.
    static func dryRun(_ plan: CustomerImportPlan, unfinished: ImportRun?, json: Bool) {
        let refused = plan.refusedRows
        // Apple's limit is about 50 requests a second per app; the client paces at 90% of it.
        let seconds = Double(plan.lookups) / 45
        if json {
            try? Output.json(
                DryRunDocument(
                    file: plan.fileName, fileSHA256: plan.fileSHA256, bundleID: plan.bundleID, rows: plan.rows.count,
                    lookups: plan.lookups, refused: refused.map(RowDocument.init), unfinishedDone: unfinished?.done))
            return
        }
        Output.line("dry run: \(plan.fileName) (sha256 \(plan.fileSHA256.prefix(12))…) into \(plan.bundleID), \(plan.rows.count) rows")
        Output.line(
            "would look up \(plan.lookups) with Apple (about \(TimeText.duration(seconds)) at Apple's rate) and link each to its app_user_id"
        )
        Output.line("would refuse \(refused.count)")
        for row in refused { Output.line("line \(row.line): \(row.reason ?? "refused")") }
        if let unfinished {
            Output.line("an import of this file is unfinished (\(unfinished.done) of \(unfinished.rows) rows done): --resume continues it")
        }
        Output.line("nothing was asked of Apple or changed")
    }
}

/// `import --json`.
private struct ImportDocument: Encodable {
    let file: String
    let fileSHA256: String
    let bundleID: String
    let imported: Int
    let alreadyThere: Int
    let refused: [RowDocument]
    let notDone: [RowDocument]

    enum CodingKeys: String, CodingKey {
        case file, imported, refused
        case fileSHA256 = "file_sha256"
        case bundleID = "bundle_id"
        case alreadyThere = "already_there"
        case notDone = "not_done"
    }
}

/// `import --dry-run --json`.
private struct DryRunDocument: Encodable {
    let file: String
    let fileSHA256: String
    let bundleID: String
    let rows: Int
    let lookups: Int
    let refused: [RowDocument]
    let unfinishedDone: Int?

    enum CodingKeys: String, CodingKey {
        case file, rows, lookups, refused
        case fileSHA256 = "file_sha256"
        case bundleID = "bundle_id"
        case unfinishedDone = "unfinished_done"
    }
}

/// One refused (or undone) row.
private struct RowDocument: Encodable {
    let line: Int
    let reason: String

    init(_ outcome: ImportRowOutcome) {
        line = outcome.line
        reason = outcome.reason ?? ""
    }
}
