import AppStore
import Crypto
import Foundation
import Settings
import Store
import Subscriptions

/// Keeps the reports' rollups equal to the facts: counts the chains whose facts changed, a
/// batch at a time (the rollup job), and recounts every chain (`subscriptionctl reports
/// rebuild`, and by itself when the prices, periods, tax rates or Small Business Program
/// periods it counted with change).
public struct ReportRollupCounting: Sendable {
    /// What a full recount did: how many chains it counted, and how many day sums it found
    /// different from those kept as facts changed (0 when the rollups were right).
    public struct Recount: Sendable, Equatable {
        public let chains: Int
        public let differingSums: Int
    }

    private let rollups: any ReportRollups
    private let catalog: any CatalogSource
    private let money: MoneySettings
    /// Chains per transaction.
    public let batchSize: Int

    public init(rollups: any ReportRollups, catalog: any CatalogSource, money: MoneySettings, batchSize: Int = 500) {
        self.rollups = rollups
        self.catalog = catalog
        self.money = money
        self.batchSize = batchSize
    }

    /// Counts one batch of changed chains; how many, or nil when another process is counting.
    /// When the configuration the rollups were counted with changed, recounts everything first.
    public func countChanges() async throws -> Int? {
        let basis = ReportBasis(catalog: try await catalog.catalog(), money: money)
        let batchSize = batchSize
        return try await rollups.counting(wait: false, lockTimeout: .seconds(1)) { counter in
            if try counter.fingerprint() != basis.fingerprint {
                return try Self.recount(counter, basis: basis, batchSize: batchSize).chains
            }
            let queued = try counter.queued(limit: batchSize)
            try Self.count(queued.map(\.key), counter, basis: basis)
            try counter.dequeue(queued)
            return queued.count
        }
    }

    /// Recounts every chain from its facts, waiting up to `lockTimeout` for the job's batch.
    public func rebuild(lockTimeout: Duration = .seconds(60)) async throws -> Recount {
        let basis = ReportBasis(catalog: try await catalog.catalog(), money: money)
        let batchSize = batchSize
        guard
            let recount = try await rollups.counting(
                wait: true, lockTimeout: lockTimeout,
                { counter in
                    try Self.recount(counter, basis: basis, batchSize: batchSize)
                })
        else { throw UseCaseError.unavailable("the rollups are being counted by another process; try again") }
        return recount
    }

    /// Chains waiting to be counted, and since when the oldest.
    public func backlog() async throws -> (count: Int, oldest: Date?) {
        try await rollups.backlog()
    }

    /// Replaces the shares of `keys` with their shares now.
    private static func count(_ keys: [ReportRollupStore.ChainKey], _ counter: any ReportRollupCounter, basis: ReportBasis) throws {
        guard !keys.isEmpty else { return }
        let shares = try basis.shares(of: keys, counter)
        let old = try counter.shares(of: keys)
        let changes = keys.flatMap { ChainRollup.changes(from: old[$0] ?? [:], to: shares[$0]?.amounts ?? [:]) }
        try counter.write(shares: shares, changes: changes, staged: false)
    }

    private static func recount(_ counter: any ReportRollupCounter, basis: ReportBasis, batchSize: Int) throws -> Recount {
        let before = try counter.daySums()
        try counter.clear()
        var cursor: ReportRollupStore.ChainKey?
        var chains = 0
        while true {
            let keys = try counter.chains(after: cursor, limit: batchSize)
            guard let last = keys.last else { break }
            let shares = try basis.shares(of: keys, counter)
            try counter.write(
                shares: shares, changes: keys.flatMap { key in (shares[key]?.amounts ?? [:]).map { ($0.key, $0.value) } }, staged: true)
            chains += keys.count
            cursor = last
        }
        try counter.addStaged()
        try counter.setFingerprint(basis.fingerprint)
        let after = try counter.daySums()
        let differing = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.count
        return Recount(chains: chains, differingSums: differing)
    }
}
