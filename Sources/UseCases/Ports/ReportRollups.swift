import Foundation
import Store
import Subscriptions

/// Where the reports' rollups are kept (`ReportRollupStore` in production).
public protocol ReportRollups: Sendable {
    /// Runs `body` as the one counter; nil without running it when another process counts
    /// and `wait` is false.
    func counting<T: Sendable>(
        wait: Bool, lockTimeout: Duration, _ body: @escaping @Sendable (any ReportRollupCounter) throws -> T
    )
        async throws -> T?
    /// What `query` needs from the rollups.
    func extract(_ query: ReportQuery, now: Date) async throws -> RollupExtract
    /// Chains waiting to be counted, and since when the oldest.
    func backlog() async throws -> (count: Int, oldest: Date?)
}

/// The rollups inside the counter's transaction.
public protocol ReportRollupCounter {
    func queued(limit: Int) throws -> [ReportRollupStore.QueuedChain]
    func dequeue(_ chains: [ReportRollupStore.QueuedChain]) throws
    func chains(after: ReportRollupStore.ChainKey?, limit: Int) throws -> [ReportRollupStore.ChainKey]
    func facts(of keys: [ReportRollupStore.ChainKey], isAutoRenewable: (TransactionFact) -> Bool) throws -> [ReportedSubscription]
    func shares(of keys: [ReportRollupStore.ChainKey]) throws -> [ReportRollupStore.ChainKey: [RollupKey: Decimal]]
    func write(shares: [ReportRollupStore.ChainKey: ChainRollup], changes: [(key: RollupKey, amount: Decimal)], staged: Bool) throws
    func addStaged() throws
    func clear() throws
    func daySums() throws -> [RollupKey: Decimal]
    func fingerprint() throws -> String?
    func setFingerprint(_ fingerprint: String) throws
}
