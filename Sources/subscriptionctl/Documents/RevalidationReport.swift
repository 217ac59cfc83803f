import AppStore
import Foundation
import Store
import Subscriptions
import UseCases

/// The summary `revalidate` prints: counts, status changes and problems.
struct RevalidationReport: Encodable {
    let summary: RevalidationSummary
    let run: RevalidationRun?
    let interrupted: Bool
    let elapsed: Double

    /// Problems listed in the human output; --json lists them all.
    private static let shownProblems = 20

    func print() {
        var heading = "revalidated \(summary.total) subscription\(summary.total == 1 ? "" : "s") in \(TimeText.duration(elapsed))"
        if let run { heading += " (run \(run.id)" + (run.resumed ? ", resumed with \(run.done) already done)" : ")") }
        if interrupted { heading += "; interrupted" }
        Output.line(heading)
        var counts = Table("OUTCOME", "COUNT")
        counts.append(["verified", String(summary.verified)])
        counts.append(["  status changed", String(summary.changes.count)])
        counts.append(["retry later", String(summary.retryLater)])
        counts.append(["rejected", String(summary.rejected)])
        counts.append(["skipped", String(summary.skipped)])
        Output.line(counts.render())
        if !summary.changes.isEmpty {
            Output.line("")
            var table = Table("SUBSCRIPTION", "FROM", "TO", "ENV")
            for change in summary.changes.sorted(by: { $0.originalTransactionID < $1.originalTransactionID }) {
                table.append([
                    change.originalTransactionID, change.oldStatus.map { Style.status($0.rawValue) } ?? "(new)",
                    Style.status(change.newStatus.rawValue), change.environment.rawValue,
                ])
            }
            Output.line(table.render())
        }
        guard !summary.problems.isEmpty else { return }
        Output.line("")
        var table = Table("SUBSCRIPTION", "OUTCOME", "REASON", "ENV")
        for problem in summary.problems.prefix(Self.shownProblems) {
            table.append([
                problem.item.originalTransactionID, problem.outcome.replacingOccurrences(of: "_", with: " "),
                ErrorText.short(problem.reason, limit: 80), problem.item.environment.rawValue,
            ])
        }
        Output.line(table.render())
        if summary.problems.count > Self.shownProblems {
            Output.line("… and \(summary.problems.count - Self.shownProblems) more (--json lists them all)")
        }
    }

    enum Keys: String, CodingKey {
        case runID = "run_id", resumed, alreadyDone = "already_done", interrupted, total, verified
        case changed, retryLater = "retry_later", rejected, skipped, changes, problems
        case originalTransactionID = "original_transaction_id", environment, oldStatus = "old_status", newStatus = "new_status"
        case outcome, reason
    }

    func encode(to encoder: any Encoder) throws {
        var root = encoder.container(keyedBy: Keys.self)
        try root.encode(run?.id, forKey: .runID)
        try root.encode(run?.resumed ?? false, forKey: .resumed)
        try root.encode(run?.done ?? 0, forKey: .alreadyDone)
        try root.encode(interrupted, forKey: .interrupted)
        try root.encode(summary.total, forKey: .total)
        try root.encode(summary.verified, forKey: .verified)
        try root.encode(summary.changes.count, forKey: .changed)
        try root.encode(summary.retryLater, forKey: .retryLater)
        try root.encode(summary.rejected, forKey: .rejected)
        try root.encode(summary.skipped, forKey: .skipped)
        var changes = root.nestedUnkeyedContainer(forKey: .changes)
        for change in summary.changes.sorted(by: { $0.originalTransactionID < $1.originalTransactionID }) {
            var item = changes.nestedContainer(keyedBy: Keys.self)
            try item.encode(change.originalTransactionID, forKey: .originalTransactionID)
            try item.encode(change.environment.rawValue, forKey: .environment)
            try item.encode(change.oldStatus?.rawValue, forKey: .oldStatus)
            try item.encode(change.newStatus.rawValue, forKey: .newStatus)
        }
        var problems = root.nestedUnkeyedContainer(forKey: .problems)
        for problem in summary.problems {
            var item = problems.nestedContainer(keyedBy: Keys.self)
            try item.encode(problem.item.originalTransactionID, forKey: .originalTransactionID)
            try item.encode(problem.item.environment.rawValue, forKey: .environment)
            try item.encode(problem.outcome, forKey: .outcome)
            try item.encode(problem.reason, forKey: .reason)
        }
    }
}
