import Store

/// The journal of `subscriptionctl import` (`ImportJournalStore` in production): which runs
/// are unfinished, how each row ended, and whether a user holds a purchase already.
public protocol CustomerImportJournal: Sendable {
    /// The runs neither finished nor abandoned, newest first.
    func unfinishedRuns() async throws -> [ImportRun]
    /// Starts a run of a file, first abandoning an unfinished run of it when `replacingUnfinished`.
    func startRun(fileSHA256: String, fileName: String, bundleID: String, rows: Int, replacingUnfinished: Bool) async throws -> ImportRun
    /// Every row outcome journaled for a run.
    func outcomes(runID: Int64) async throws -> [ImportRowOutcome]
    /// Journals one row's outcome.
    func record(_ outcome: ImportRowOutcome, runID: Int64) async throws
    /// Marks a run finished.
    func finish(runID: Int64) async throws
    /// Whether the user is linked, in the app, to the purchase the transaction belongs to.
    func isLinked(appUserID: String, transactionID: String, bundleID: String) async throws -> Bool
}
