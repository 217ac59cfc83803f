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
        let basis = Basis(catalog: try await catalog.catalog(), money: money)
        let batchSize = batchSize
        return try await rollups.counting(wait: false, lockTimeout: .seconds(1)) { counter in
            if try counter.fingerprint() != basis.fingerprint {
                return try Self.recount(counter, basis: basis, batchSize: batchSize).chains
            }
            let keys = try counter.claim(limit: batchSize)
            try Self.count(keys, counter, basis: basis)
            return keys.count
        }
    }

    /// Recounts every chain from its facts, waiting up to `lockTimeout` for the job's batch.
    public func rebuild(lockTimeout: Duration = .seconds(60)) async throws -> Recount {
        let basis = Basis(catalog: try await catalog.catalog(), money: money)
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
    private static func count(_ keys: [ReportRollupStore.ChainKey], _ counter: any ReportRollupCounter, basis: Basis) throws {
        guard !keys.isEmpty else { return }
        let shares = try basis.shares(of: keys, counter)
        let old = try counter.shares(of: keys)
        var change: [RollupKey: Decimal] = [:]
        for key in keys {
            for (rollupKey, amount) in ChainRollup.change(from: old[key] ?? [:], to: shares[key]?.amounts ?? [:]) {
                change[rollupKey, default: 0] += amount
            }
        }
        try counter.write(shares: shares, change: change.filter { $0.value != 0 })
    }

    private static func recount(_ counter: any ReportRollupCounter, basis: Basis, batchSize: Int) throws -> Recount {
        let before = try counter.daySums()
        try counter.clear()
        var after: [RollupKey: Decimal] = [:]
        var cursor: ReportRollupStore.ChainKey?
        var chains = 0
        while true {
            let keys = try counter.chains(after: cursor, limit: batchSize)
            guard let last = keys.last else { break }
            let shares = try basis.shares(of: keys, counter)
            try counter.write(shares: shares, change: [:])
            for share in shares.values {
                for (key, amount) in share.amounts { after[key, default: 0] += amount }
            }
            chains += keys.count
            cursor = last
        }
        after = after.filter { $0.value != 0 }
        try counter.add(after)
        try counter.setFingerprint(basis.fingerprint)
        let differing = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.count
        return Recount(chains: chains, differingSums: differing)
    }

    /// What shares are computed with: the catalog's prices and periods, tax rates and the
    /// Small Business Program; and its fingerprint.
    struct Basis: Sendable {
        let catalog: ProductCatalog
        let pricing: ReportPricing
        let fingerprint: String

        init(catalog: ProductCatalog, money: MoneySettings) {
            self.catalog = catalog
            self.pricing = ReportPricing(
                price: { ReportPricing.price(of: $0, catalog: catalog).map { ($0.amount, $0.currency) } },
                period: { catalog.product($0)?.period }, convert: { _, _, _ in nil }, taxRates: money.taxRates,
                smallBusiness: { money.smallBusinessProgram(of: $0) })
            var text = "rollups 1\n"
            for product in catalog.products.sorted(by: { $0.productID < $1.productID }) {
                let prices = (product.prices ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.amount) \($0.value.currency)" }
                text +=
                    "\(product.productID) \(product.type.rawValue) \(product.period.map { "\($0)" } ?? "-") "
                    + "\(product.price.map { "\($0.amount) \($0.currency)" } ?? "-") \(prices.joined(separator: ","))\n"
            }
            text +=
                "tax \(money.taxRates.rates.sorted { $0.key < $1.key })\nsbp \(money.smallBusiness.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" })\n"
            self.fingerprint = SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
        }

        func isAutoRenewable(_ transaction: TransactionFact) -> Bool {
            if let type = catalog.product(transaction.productID)?.type ?? transaction.productType { return type == .autoRenewable }
            return transaction.expiresDate != nil && transaction.subscriptionGroupID != nil
        }

        /// The shares of `keys` now (empty for a chain without facts any more).
        func shares(
            of keys: [ReportRollupStore.ChainKey], _ counter: any ReportRollupCounter
        ) throws
            -> [ReportRollupStore.ChainKey: ChainRollup]
        {
            var shares = Dictionary(uniqueKeysWithValues: keys.map { ($0, ChainRollup()) })
            for chain in try counter.facts(of: keys, isAutoRenewable: isAutoRenewable) {
                let key = ReportRollupStore.ChainKey(
                    environment: chain.environment.rawValue, originalTransactionID: chain.originalTransactionID)
                shares[key] = ChainRollup.of(ChainContributions.of(chain, pricing: pricing))
            }
            return shares
        }
    }
}
