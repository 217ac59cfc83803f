import AppStore
import Foundation
import Subscriptions

/// The rollups kept in memory: each chain's share (``ChainRollup``) summed, and read for a
/// query as the rollup store reads its tables. The store's SQL must read the same extract;
/// `ReportRollupStoreTests` compares them.
struct InMemoryRollups {
    let chains: [(environment: String, rollup: ChainRollup)]
    let amounts: [RollupKey: Decimal]

    init(_ chains: [ReportedSubscription], pricing: ReportPricing) {
        self.chains = chains.map { ($0.environment.rawValue, ChainRollup.of(ChainContributions.of($0, pricing: pricing))) }
        var amounts: [RollupKey: Decimal] = [:]
        for chain in self.chains {
            for (key, amount) in chain.rollup.amounts { amounts[key, default: 0] += amount }
        }
        self.amounts = amounts
    }

    func extract(_ query: ReportQuery, now: Date) -> RollupExtract {
        let bounds = RollupExtract.bounds(of: query)
        guard let first = bounds.first, let last = bounds.last else { return RollupExtract() }
        func selected(_ dimensions: ChainContributions.Dimensions) -> Bool {
            dimensions.environment == query.environment && query.app.map { $0 == dimensions.bundleID } ?? true
                && query.product.map { $0 == dimensions.productID } ?? true
        }
        func group(_ dimensions: ChainContributions.Dimensions) -> String {
            query.groupBy?.key(bundleID: dimensions.bundleID, productID: dimensions.productID, storefront: dimensions.storefront) ?? ""
        }
        var extract = RollupExtract()
        let (levels, flows) = RollupExtract.measures(for: query)
        for (key, amount) in amounts where selected(key.dimensions) {
            let row = RollupExtract.Amount(day: key.day, group: group(key.dimensions), currency: key.currency, amount: amount)
            if levels.contains(key.measure) {
                if key.day <= first {
                    extract.opening[key.measure, default: []].append(
                        RollupExtract.Amount(day: nil, group: row.group, currency: row.currency, amount: amount))
                } else if key.day <= last {
                    extract.days[key.measure, default: []].append(row)
                }
            } else if flows.contains(key.measure), key.day >= first, key.day < last {
                extract.days[key.measure, default: []].append(row)
            }
        }
        let buckets = query.buckets
        if query.metric == .churn {
            let clipped = Set(query.clippedBuckets)
            extract.churned = buckets.enumerated().map { index, bucket in
                guard clipped.contains(index) else { return 0 }
                return chains.filter { chain in
                    chain.rollup.spans.contains { span in
                        span.kind == .paid && selected(span.dimensions) && span.covers(bucket.start)
                            && span.runEnd.map { $0 <= bucket.end } ?? false
                    } && !chain.rollup.spans.contains { $0.kind == .paid && $0.covers(bucket.end) }
                }.count
            }
        }
        if query.metric == .trialConversion {
            extract.pending = buckets.map { bucket in
                chains.flatMap(\.rollup.spans).filter { span in
                    span.kind == .openTrial && selected(span.dimensions) && span.start >= bucket.start && span.start < bucket.end
                        && (span.end.map { $0 > now } ?? false)
                }.count
            }
        }
        if let kind = RollupExtract.unpricedKind(for: query.metric) {
            let ids = Set(
                chains.flatMap(\.rollup.spans).filter { span in
                    guard span.kind == kind, selected(span.dimensions) else { return false }
                    return kind == .unpricedSale ? span.start >= first && span.start < last : buckets.contains { span.covers($0.end) }
                }.compactMap(\.transactionID))
            extract.unpriced = ids.sorted()
            extract.unpricedCount = ids.count
        }
        return extract
    }
}
