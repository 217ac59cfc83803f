import AppStore
import Foundation
import Logging
import Settings
import Store
import Subscriptions

/// `subscriptionctl revalidate`: re-verifies stored receipts with `verifyReceipt` and applies
/// the answers the way the worker does, at most `concurrency` at a time, stopping early
/// (after the ones in flight) on request.
public struct Revalidator: Sendable {
    /// Where the subscriptions to revalidate come from.
    public enum Source: Sendable {
        /// These, once each.
        case items([RevalidationItem])
        /// The candidates of a `--all` run, read in pages so any table size fits in memory.
        case run(RevalidationRun)
    }

    /// What revalidating one subscription came to.
    public enum Outcome: Sendable, Equatable {
        /// Apple vouched for the receipt and its facts were applied; `change` when the status moved.
        case verified(change: StatusChange?)
        /// Upstream trouble that can heal: not recorded, so a rerun tries it again.
        case retryLater(String)
        /// Apple rejected the receipt for good: recorded.
        case rejected(String)
        /// Nothing to verify with: no stored receipt, or no shared secret for the app.
        case skipped(String)
    }

    private let database: any FactDatabase
    private let store: RevalidationStore
    private let evidence: AppleEvidence
    private let apps: AppRegistry
    private let concurrency: Int
    private let logger: Logger

    /// Revalidates through `evidence`, `concurrency` receipts at a time.
    public init(
        database: any FactDatabase, store: RevalidationStore, evidence: AppleEvidence, apps: AppRegistry, concurrency: Int, logger: Logger
    ) {
        self.database = database
        self.store = store
        self.evidence = evidence
        self.apps = apps
        self.concurrency = max(1, concurrency)
        self.logger = logger
    }

    private static let pageSize = 200

    /// Revalidates every item of `source`; `shouldStop` is checked before each new one starts.
    public func run(
        _ source: Source,
        shouldStop: @escaping @Sendable () -> Bool,
        onOutcome: @escaping @Sendable (RevalidationItem, Outcome) -> Void
    ) async throws -> (completed: Bool, summary: RevalidationSummary) {
        var summary = RevalidationSummary()
        var completed = false
        try await withThrowingTaskGroup(of: (RevalidationItem, Outcome).self) { group in
            var queue: [RevalidationItem] = []
            var next = 0
            var exhausted = false
            var cursor: RevalidationItem?
            var inFlight = 0
            while !shouldStop() {
                if next == queue.count {
                    if exhausted { break }
                    switch source {
                    case .items(let items):
                        queue = items
                        exhausted = true
                    case .run(let run):
                        queue = try await store.nextBatch(of: run, after: cursor, limit: Self.pageSize)
                        cursor = queue.last
                        exhausted = queue.count < Self.pageSize
                    }
                    next = 0
                    if queue.isEmpty { break }
                }
                if inFlight >= concurrency, case (let item, let outcome)? = try await group.next() {
                    inFlight -= 1
                    summary.add(item, outcome)
                    onOutcome(item, outcome)
                    continue
                }
                let item = queue[next]
                next += 1
                inFlight += 1
                group.addTask { (item, try await revalidate(item)) }
            }
            completed = exhausted && next == queue.count
            while case (let item, let outcome)? = try await group.next() {
                summary.add(item, outcome)
                onOutcome(item, outcome)
            }
        }
        return (completed, summary)
    }

    /// Verifies one stored receipt and applies the facts in one transaction, recording the
    /// final answer with them.
    public func revalidate(_ item: RevalidationItem) async throws -> Outcome {
        guard let receipt = item.receipt else { return .skipped("no stored receipt") }
        guard let app = apps.app(bundleID: item.bundleID) else {
            return .skipped("no shared secret is configured for bundle id \(item.bundleID)")
        }
        switch await evidence.verify(receipt: receipt, app: app, keepingReceipt: false, logger: logger) {
        case .facts(let batches):
            do {
                let apps = apps
                let changes = try await database.transaction { transaction in
                    let changes = try FactApplier.apply(batches, notificationID: nil, appUserID: nil, apps: apps, in: transaction)
                    try transaction.recordRevalidation(item, outcome: "verified")
                    return changes
                }
                let change = changes.first {
                    $0.originalTransactionID == item.originalTransactionID && $0.environment == item.environment && $0.oldStatus != nil
                }
                return .verified(change: change)
            } catch let error where StoreFailure(error) == .busy {
                // A deadlock or serialization failure against the worker: nothing was applied.
                return .retryLater("database: \(StoreFailure.reason(error))")
            }
        case .retry(let reason, _):
            return .retryLater(reason)
        case .refused(let reason, _):
            try await store.record(item, outcome: "rejected: \(reason)")
            return .rejected(reason)
        }
    }
}

/// Counts and details of one revalidation.
public struct RevalidationSummary: Sendable {
    public struct Problem: Sendable {
        public let item: RevalidationItem
        public let outcome: String
        public let reason: String
    }

    public private(set) var verified = 0
    public private(set) var retryLater = 0
    public private(set) var rejected = 0
    public private(set) var skipped = 0
    public private(set) var changes: [StatusChange] = []
    public private(set) var problems: [Problem] = []

    public var total: Int { verified + retryLater + rejected + skipped }

    mutating func add(_ item: RevalidationItem, _ outcome: Revalidator.Outcome) {
        switch outcome {
        case .verified(let change):
            verified += 1
            if let change { changes.append(change) }
        case .retryLater(let reason):
            retryLater += 1
            problems.append(Problem(item: item, outcome: "retry_later", reason: reason))
        case .rejected(let reason):
            rejected += 1
            problems.append(Problem(item: item, outcome: "rejected", reason: reason))
        case .skipped(let reason):
            skipped += 1
            problems.append(Problem(item: item, outcome: "skipped", reason: reason))
        }
    }
}
