import Foundation

/// The reports answered from the chains' contributions alone (``ChainContributions``), never
/// from the facts: the shape the stored daily rollups keep, which must answer exactly as
/// ``ReportEvaluator`` does.
public struct ReportRollup: Sendable {
    public let chains: [ChainContributions]
    /// Exchange into the report currency (the pricing's `convert`).
    public let convert: @Sendable (Decimal, String, Date) -> Decimal?
    public let now: Date

    public init(chains: [ChainContributions], convert: @escaping @Sendable (Decimal, String, Date) -> Decimal?, now: Date) {
        self.chains = chains
        self.convert = convert
        self.now = now
    }

    public func answer(_ query: ReportQuery) -> ReportAnswer {
        var missingRates = Set<String>()
        var unpriced = Set<String>()
        func selected(_ dimensions: ChainContributions.Dimensions) -> Bool {
            dimensions.environment == query.environment && query.app.map { $0 == dimensions.bundleID } ?? true
                && query.product.map { $0 == dimensions.productID } ?? true
        }
        func key(_ dimensions: ChainContributions.Dimensions) -> String? {
            query.groupBy?.key(bundleID: dimensions.bundleID, productID: dimensions.productID, storefront: dimensions.storefront)
        }
        func converted(_ amount: Decimal, _ currency: String, _ day: Date) -> Decimal? {
            guard let value = convert(amount, currency, day) else {
                missingRates.insert(currency)
                return nil
            }
            return value
        }
        let points = query.buckets.map { bucket -> ReportAnswer.Point in
            var point = ReportAnswer.Point(date: bucket.start, value: 0, groups: [:], counts: [:])
            func add(_ amount: Decimal, _ dimensions: ChainContributions.Dimensions) {
                point.value = (point.value ?? 0) + amount
                if let key = key(dimensions) { point.groups[key, default: 0] += amount }
            }
            let inBucket = { (instant: Date) in instant >= bucket.start && instant < bucket.end }
            let lastDay = bucket.end.addingTimeInterval(-86_400)
            switch query.metric {
            case .activeSubscriptions, .activeTrials:
                for chain in chains {
                    for stretch in chain.stretches
                    where stretch.covers(bucket.end) && stretch.trial == (query.metric == .activeTrials) && selected(stretch.dimensions) {
                        add(1, stretch.dimensions)
                    }
                }
            case .mrr, .arr:
                let factor: Decimal = query.metric == .arr ? 12 : 1
                for chain in chains {
                    for stretch in chain.stretches where !stretch.trial && stretch.covers(bucket.end) && selected(stretch.dimensions) {
                        if let id = stretch.unpricedTransactionID { unpriced.insert(id) }
                        guard let monthly = stretch.monthly, let currency = stretch.currency,
                            let amount = converted(query.proceeds ? monthly.proceeds : monthly.price, currency, lastDay)
                        else { continue }
                        add(amount * factor, stretch.dimensions)
                    }
                }
            case .newSubscriptions, .newTrials:
                for chain in chains {
                    guard let start = chain.start, inBucket(start.at), start.trial == (query.metric == .newTrials),
                        selected(start.dimensions)
                    else { continue }
                    add(1, start.dimensions)
                }
            case .churn:
                var base = 0
                var churned = 0
                for chain in chains {
                    guard let stretch = chain.stretches.first(where: { !$0.trial && $0.covers(bucket.start) }), selected(stretch.dimensions)
                    else { continue }
                    base += 1
                    if !chain.stretches.contains(where: { !$0.trial && $0.covers(bucket.end) }) { churned += 1 }
                }
                point.counts = ["churned": churned, "base": base]
                point.value = base == 0 ? nil : Decimal(churned) / Decimal(base)
            case .trialConversion:
                var counts = ["converted": 0, "started": 0, "pending": 0]
                for chain in chains {
                    for trial in chain.trials where inBucket(trial.start) && selected(trial.dimensions) {
                        counts["started", default: 0] += 1
                        if trial.converted {
                            counts["converted", default: 0] += 1
                        } else if !trial.revoked, let end = trial.end, end > now {
                            counts["pending", default: 0] += 1
                        }
                    }
                }
                point.counts = counts
                let started = counts["started"] ?? 0
                point.value = started == 0 ? nil : Decimal(counts["converted"] ?? 0) / Decimal(started)
            case .revenue, .proceeds:
                for chain in chains {
                    for sale in chain.sales where inBucket(sale.at) && selected(sale.dimensions) {
                        guard let revenue = sale.revenue, let proceeds = sale.proceeds, let currency = sale.currency else {
                            unpriced.insert(sale.transactionID)
                            continue
                        }
                        if let amount = converted(query.metric == .proceeds ? proceeds : revenue, currency, sale.at) {
                            add(amount, sale.dimensions)
                        }
                    }
                }
            case .refundRate:
                var sold = 0
                var refunded = 0
                for chain in chains {
                    for sale in chain.sales where inBucket(sale.at) && selected(sale.dimensions) && sale.counted {
                        sold += 1
                        if sale.refunded { refunded += 1 }
                    }
                }
                point.counts = ["refunded": refunded, "sold": sold]
                point.value = sold == 0 ? nil : Decimal(refunded) / Decimal(sold)
            }
            return point
        }
        return ReportAnswer(
            query: query, points: points, missingRates: missingRates.sorted(), warnings: ReportAnswer.warnings(unpriced: unpriced))
    }
}
