import Foundation
import Logging
import Settings
import Store

/// `subscriptionctl sync`: reads stored subscriptions again from the App Store Server API
/// (statuses and the customer's whole history) and applies what Apple says now, like a
/// notification would, so a missed or lost notification heals. At most `concurrency` at once.
public struct SubscriptionSync: Sendable {
    private let evidence: AppleEvidence
    private let applier: FactApplier
    private let queries: SyncTargetQueries
    private let concurrency: Int
    private let logger: Logger

    /// Syncs the targets `queries` finds, asking through `evidence` and applying with `applier`.
    public init(applier: FactApplier, queries: SyncTargetQueries, evidence: AppleEvidence, concurrency: Int, logger: Logger) {
        self.evidence = evidence
        self.applier = applier
        self.queries = queries
        self.concurrency = max(1, concurrency)
        self.logger = logger
    }

    /// The stored subscriptions of the apps with an API key: `originalTransactionIDs`, or all when nil.
    public func targets(_ originalTransactionIDs: [String]?) async throws -> [SyncTarget] {
        try await queries.targets(originalTransactionIDs: originalTransactionIDs, bundleIDs: evidence.bundleIDsWithAPIKey)
    }

    /// Syncs every target; returns one line per target that failed (`id: reason`).
    /// `onEach` is called as each target ends.
    public func run(_ targets: [SyncTarget], onEach: @escaping @Sendable () -> Void = {}) async throws -> [String] {
        try await withThrowingTaskGroup(of: String?.self) { group in
            var failures: [String] = []
            var next = targets.makeIterator()
            func add(_ target: SyncTarget?) {
                guard let target else { return }
                group.addTask { await sync(target) }
            }
            for _ in 0..<concurrency { add(next.next()) }
            while let outcome = try await group.next() {
                onEach()
                if let outcome { failures.append(outcome) }
                add(next.next())
            }
            return failures
        }
    }

    /// Syncs one subscription; nil when it worked, else why not.
    public func sync(_ target: SyncTarget) async -> String? {
        let id = target.originalTransactionID
        switch await evidence.lookUp(
            transactionID: id, bundleID: target.bundleID, environment: target.environment, withHistory: true, logger: logger)
        {
        case .facts(let batches):
            do {
                try await applier.apply(batches)
                return nil
            } catch {
                return "\(id): \(error)"
            }
        case .retry(let reason, _), .refused(let reason, _):
            return "\(id): \(reason)"
        }
    }
}
