import AppStoreSignature
import CatalogFiles
import Crypto
import Foundation
import Logging
import Settings
import Store
import Subscriptions

/// `subscriptionctl import FILE.csv`: moves existing customers in. Each row's purchase is
/// looked up with Apple as `POST /v1/transactions` and `POST /v1/receipts` look it up (the
/// same clients, so the same per-app rate limiter), applied, and linked to the row's user
/// under the app's link policy. Each row's outcome is journaled in PostgreSQL as it ends, so
/// a rerun with `resume` skips the rows done.
public struct CustomerImport: Sendable {
    private let journal: any CustomerImportJournal
    private let applier: FactApplier
    private let evidence: AppleEvidence
    private let receiptProof: AppReceiptVerifier
    private let apps: AppRegistry
    private let concurrency: Int
    private let logger: Logger

    /// Imports through `evidence` and `applier`, journaling in `journal`, `concurrency` rows at once.
    public init(
        journal: any CustomerImportJournal, applier: FactApplier, evidence: AppleEvidence, receiptProof: AppReceiptVerifier,
        apps: AppRegistry, concurrency: Int, logger: Logger
    ) {
        self.journal = journal
        self.applier = applier
        self.evidence = evidence
        self.receiptProof = receiptProof
        self.apps = apps
        self.concurrency = max(1, concurrency)
        self.logger = logger
    }

    /// Reads and checks `data` (the file named `name`) for `bundleID` (nil: the only configured
    /// app): the whole file refused is `UseCaseError.malformed` with one line, nothing asked.
    public func plan(file data: Data, name: String, bundleID: String?) throws(UseCaseError) -> CustomerImportPlan {
        let rows: [CustomerImportRow]
        switch CustomerImportFile.parse(String(decoding: data, as: UTF8.self)) {
        case .success(let parsed): rows = parsed
        case .failure(let unusable): throw .malformed("\(name): \(unusable.description); nothing was imported")
        }
        let app = try Self.app(bundleID, apps: apps)
        let needsLookup = rows.contains { $0.content.transactionID != nil }
        if needsLookup && !evidence.canLookUp(bundleID: app.bundleID) {
            throw .malformed(
                "\(name) names transaction ids, which are looked up with \(app.bundleID)'s App Store Server API key, and it has none (APPSTORE_ISSUER_ID, APPSTORE_KEY_ID, APPSTORE_PRIVATE_KEY_FILE); nothing was imported"
            )
        }
        let needsReceipts = rows.contains { if case .receipt = $0.content { true } else { false } }
        if needsReceipts && app.sharedSecret == nil && !evidence.canLookUp(bundleID: app.bundleID) {
            throw .malformed("\(name) holds receipts and \(app.bundleID) has neither a shared secret nor an API key; nothing was imported")
        }
        let hash = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
        return CustomerImportPlan(fileName: name, fileSHA256: hash, bundleID: app.bundleID, rows: rows)
    }

    /// The unfinished run of `plan`'s file, if there is one.
    public func unfinishedRun(of plan: CustomerImportPlan) async throws -> ImportRun? {
        try await journal.unfinishedRuns().first { $0.fileSHA256 == plan.fileSHA256 }
    }

    /// The run to carry `plan` out in: the unfinished run of its file with `resume`, else a new
    /// one (abandoning an unfinished one only with `restart`). `UseCaseError.malformed` when
    /// `resume` finds no unfinished run of this file (another file's is named), or when one
    /// exists and neither flag was given.
    public func begin(_ plan: CustomerImportPlan, resume: Bool, restart: Bool) async throws -> ImportRun {
        let unfinished = try await journal.unfinishedRuns()
        let same = unfinished.first { $0.fileSHA256 == plan.fileSHA256 }
        if resume {
            guard let same else {
                let others = unfinished.map { "\($0.fileName) (\($0.done) of \($0.rows) rows done)" }.joined(separator: ", ")
                throw UseCaseError.malformed(
                    others.isEmpty
                        ? "--resume: no import of \(plan.fileName) is unfinished; run it without --resume"
                        : "--resume: \(plan.fileName) is not the file of the unfinished import (\(others)); resume with that file, or run this one without --resume"
                )
            }
            guard same.bundleID == plan.bundleID else {
                throw UseCaseError.malformed(
                    "--resume: the unfinished import of \(plan.fileName) is into \(same.bundleID), not \(plan.bundleID)")
            }
            return same
        }
        if let same, !restart {
            throw UseCaseError.malformed(
                "an import of \(plan.fileName) is unfinished (\(same.done) of \(same.rows) rows done): add --resume to continue it, or --restart to start over"
            )
        }
        return try await journal.startRun(
            fileSHA256: plan.fileSHA256, fileName: plan.fileName, bundleID: plan.bundleID, rows: plan.rows.count,
            replacingUnfinished: restart)
    }

    /// Imports the rows of `plan` not yet journaled in `run`, `concurrency` at once, and
    /// returns the whole run's summary; the run is finished when no row is left undone.
    /// `onEach` is called as each row ends.
    public func run(
        _ plan: CustomerImportPlan, in run: ImportRun, onEach: @escaping @Sendable () -> Void = {}
    ) async throws -> CustomerImportSummary {
        let done = Set(try await journal.outcomes(runID: run.id).map(\.line))
        let toDo = plan.rows.filter { !done.contains($0.line) }
        let undone = try await withThrowingTaskGroup(of: (CustomerImportRow, String?).self) { group in
            var undone: [ImportRowOutcome] = []
            var next = toDo.makeIterator()
            func add(_ row: CustomerImportRow?) {
                guard let row else { return }
                group.addTask { (row, try await importRow(row, bundleID: plan.bundleID, runID: run.id)) }
            }
            for _ in 0..<concurrency { add(next.next()) }
            while let (row, notDone) = try await group.next() {
                onEach()
                if let notDone { undone.append(ImportRowOutcome(line: row.line, kind: .refused, reason: notDone)) }
                add(next.next())
            }
            return undone
        }
        if undone.isEmpty { try await journal.finish(runID: run.id) }
        return CustomerImportSummary(outcomes: try await journal.outcomes(runID: run.id), notDone: undone.sorted { $0.line < $1.line })
    }

    /// Imports one row and journals its outcome; returns why not when Apple did not answer
    /// now (the row stays unjournaled, for a rerun).
    private func importRow(_ row: CustomerImportRow, bundleID: String, runID: Int64) async throws -> String? {
        let ended: ImportRowOutcome
        switch try await outcome(of: row, bundleID: bundleID) {
        case .success(let kind): ended = ImportRowOutcome(line: row.line, kind: kind)
        case .failure(.refused(let reason)): ended = ImportRowOutcome(line: row.line, kind: .refused, reason: reason)
        case .failure(.later(let reason)): return reason
        }
        try await journal.record(ended, runID: runID)
        return nil
    }

    private enum RowFailure: Error {
        case refused(String)
        case later(String)
    }

    private func outcome(of row: CustomerImportRow, bundleID: String) async throws -> Result<ImportRowOutcome.Kind, RowFailure> {
        if case .refused(let reason) = row.content { return .failure(.refused(reason)) }
        if let id = row.content.transactionID,
            try await journal.isLinked(appUserID: row.appUserID, transactionID: id, bundleID: bundleID)
        {
            return .success(.alreadyThere)
        }
        let answer: AppleEvidence.Answer
        do {
            answer = try await ask(row.content, bundleID: bundleID)
        } catch {
            return .failure(.refused(error.description))
        }
        switch answer {
        case .facts(let batches):
            if let other = batches.first(where: { $0.facts.bundleID != bundleID }) {
                return .failure(.refused("the purchase is \(other.facts.bundleID)'s, not \(bundleID)'s"))
            }
            let held = try await isLinked(row.appUserID, toAllOf: batches, bundleID: bundleID)
            do {
                // Applied even when held: what Apple says now is newer than what is stored.
                try await applier.apply(batches, appUserID: row.appUserID)
            } catch UseCaseError.ownedByOtherUser(let reason) {
                return .failure(.refused("\(reason) (the app's link_policy)"))
            }
            return .success(held ? .alreadyThere : .imported)
        case .refused(_, notFound: true):
            return .failure(
                .refused("the App Store knows no transaction \(row.content.transactionID ?? "of the receipt") in either environment"))
        case .refused(let reason, _):
            return .failure(.refused("the App Store refused it: \(reason)"))
        case .retry(let reason, _):
            return .failure(.later(reason))
        }
    }

    /// Whether `appUserID` was linked to every purchase `batches` are about before they are applied.
    private func isLinked(_ appUserID: String, toAllOf batches: [FactBatch], bundleID: String) async throws -> Bool {
        let originals = Set(batches.flatMap(\.facts.originalTransactionIDs))
        guard !originals.isEmpty else { return false }
        for original in originals where !(try await journal.isLinked(appUserID: appUserID, transactionID: original, bundleID: bundleID)) {
            return false
        }
        return true
    }

    /// What Apple says of a row's purchase, asked as `/v1/transactions` and `/v1/receipts` ask.
    private func ask(_ content: CustomerImportRow.Content, bundleID: String) async throws(UseCaseError) -> AppleEvidence.Answer {
        let grandfathers = apps.grandfathers(bundleID: bundleID)
        switch content {
        case .transactionID(let id), .originalTransactionID(let id):
            return await evidence.lookUpForLinking(
                transactionID: id, bundleID: bundleID, readingOriginalVersion: grandfathers, logger: logger)
        case .receipt(let receipt):
            let submission = try ReceiptSubmission(receiptData: receipt, bundleID: bundleID, apps: apps)
            guard submission.isLookedUp(by: evidence) else {
                return await evidence.verify(receipt: receipt, app: submission.app, keepingReceipt: true, logger: logger)
            }
            let id = try await submission.provenTransactionID(verifiedBy: receiptProof)
            return await evidence.lookUpForLinking(
                transactionID: id, bundleID: bundleID, readingOriginalVersion: grandfathers, logger: logger)
        case .refused(let reason):
            throw .malformed(reason)
        }
    }

    private static func app(_ bundleID: String?, apps: AppRegistry) throws(UseCaseError) -> AppCredentials {
        if let bundleID {
            guard let app = apps.app(bundleID: bundleID) else {
                throw .malformed("--app \(bundleID) is not a configured app (SUBSCRIPTIOND_CONFIG, APPSTORE_BUNDLE_ID)")
            }
            return app
        }
        guard apps.bundleIDs.count == 1, let app = apps.app(bundleID: apps.bundleIDs[0]) else {
            throw .malformed("name the app with --app: \(apps.bundleIDs.count) apps are configured")
        }
        return app
    }
}
