import AppStore
import Foundation

/// The reports computed straight from the facts: the definition every faster path (the
/// daily rollups) must agree with, and what `reports rebuild` recomputes them from.
///
/// The past is described as known now: a refund counts from its revocation date (before it,
/// the period and its price stand); `billing_retry` is not active; a grace period keeps its
/// last period's price.
public struct ReportEvaluator: Sendable {
    public let pricing: ReportPricing
    /// When the report is made: trials still running now are `pending`.
    public let now: Date

    public init(pricing: ReportPricing, now: Date) {
        self.pricing = pricing
        self.now = now
    }

    /// Answers `query` over `chains` (every purchase chain; filtered here).
    public func answer(_ query: ReportQuery, over chains: [ReportedSubscription]) -> ReportAnswer {
        let selected = chains.filter { chain in
            chain.environment == query.environment && query.app.map { $0 == chain.bundleID } ?? true
        }
        var tally = Tally()
        let points = query.buckets.map { bucket in point(query, bucket, selected, &tally) }
        return ReportAnswer(query: query, points: points, missingRates: tally.missingRates.sorted(), warnings: tally.warnings)
    }

    /// What an answer collects beside its points.
    private struct Tally {
        var missingRates = Set<String>()
        var unpriced = Set<String>()
        var warnings: [String] { ReportAnswer.warnings(unpriced: unpriced.sorted(), count: unpriced.count) }
    }

    private func point(
        _ query: ReportQuery, _ bucket: DateInterval, _ chains: [ReportedSubscription], _ tally: inout Tally
    )
        -> ReportAnswer.Point
    {
        var point = ReportAnswer.Point(date: bucket.start, value: 0, groups: [:], counts: [:])
        // The product filter applies to the transaction each number is about: the current
        // period's, the first period's, the one sold.
        func selected(_ transaction: TransactionFact) -> Bool { query.product.map { $0 == transaction.productID } ?? true }
        // Amounts at a point convert at its last day's rate.
        let lastDay = bucket.end.addingTimeInterval(-86_400)
        func add(_ amount: Decimal, _ key: String?) {
            point.value = (point.value ?? 0) + amount
            if let key, amount != 0 { point.groups[key, default: 0] += amount }
        }
        switch query.metric {
        case .activeSubscriptions, .activeTrials:
            for chain in chains where chain.isAutoRenewable {
                guard let state = chain.reportState(at: bucket.end), selected(state.transaction) else { continue }
                if query.metric == .activeSubscriptions ? state.paid : state.trial {
                    add(1, key(query.groupBy, chain, state.transaction))
                }
            }
        case .mrr, .arr:
            let factor: Decimal = query.metric == .arr ? 12 : 1
            for chain in chains where chain.isAutoRenewable {
                guard let state = chain.reportState(at: bucket.end), state.paid, selected(state.transaction) else { continue }
                guard let monthly = pricing.period(state.transaction)?.monthlyFactor else { continue }
                guard let amount = money(state.transaction, in: chain, proceeds: query.proceeds, refunds: false, on: lastDay, &tally)
                else { continue }
                add(amount * monthly * factor, key(query.groupBy, chain, state.transaction))
            }
        case .newSubscriptions, .newTrials:
            for chain in chains where chain.isAutoRenewable {
                guard let first = chain.transactions.first, first.purchaseDate >= bucket.start, first.purchaseDate < bucket.end,
                    selected(first)
                else { continue }
                if first.isTrialPeriod == (query.metric == .newTrials) { add(1, key(query.groupBy, chain, first)) }
            }
        case .churn:
            var base = 0
            var churned = 0
            for chain in chains where chain.isAutoRenewable {
                guard let start = chain.reportState(at: bucket.start), start.paid, selected(start.transaction) else { continue }
                base += 1
                if !(chain.reportState(at: bucket.end)?.paid ?? false) { churned += 1 }
            }
            point.counts = ["churned": churned, "base": base]
            point.value = base == 0 ? nil : Decimal(churned) / Decimal(base)
        case .trialConversion:
            var started = 0
            var converted = 0
            var pending = 0
            for chain in chains where chain.isAutoRenewable {
                for trial in chain.transactions
                where trial.isTrialPeriod && trial.purchaseDate >= bucket.start && trial.purchaseDate < bucket.end && selected(trial) {
                    started += 1
                    let paidAfter = chain.transactions.contains {
                        $0.isPaid && $0.purchaseDate >= trial.purchaseDate && $0.refundedShare == nil
                    }
                    if paidAfter {
                        converted += 1
                    } else if trial.cancellationDate == nil, let end = trial.expiresDate, end > now {
                        pending += 1
                    }
                }
            }
            point.counts = ["converted": converted, "started": started, "pending": pending]
            point.value = started == 0 ? nil : Decimal(converted) / Decimal(started)
        case .revenue, .proceeds:
            for chain in chains {
                for transaction in chain.transactions
                where transaction.isPaid && transaction.purchaseDate >= bucket.start && transaction.purchaseDate < bucket.end
                    && selected(transaction)
                {
                    guard
                        let amount = money(
                            transaction, in: chain, proceeds: query.metric == .proceeds, refunds: true, on: transaction.purchaseDate, &tally
                        )
                    else { continue }
                    add(amount, key(query.groupBy, chain, transaction))
                }
            }
        case .refundRate:
            var sold = 0
            var refunded = 0
            for chain in chains {
                for transaction in chain.transactions
                where transaction.isPaid && transaction.purchaseDate >= bucket.start && transaction.purchaseDate < bucket.end
                    && selected(transaction)
                {
                    guard let price = pricing.price(transaction), price.amount > 0 else { continue }
                    sold += 1
                    if transaction.refundedShare != nil { refunded += 1 }
                }
            }
            point.counts = ["refunded": refunded, "sold": sold]
            point.value = sold == 0 ? nil : Decimal(refunded) / Decimal(sold)
        }
        return point
    }

    /// A transaction's price (or estimated proceeds) in the report currency, converted at
    /// `day`; with `refunds`, less what a refund gave back. Nil (and noted) without a price or rate.
    private func money(
        _ transaction: TransactionFact, in chain: ReportedSubscription, proceeds: Bool, refunds: Bool, on day: Date, _ tally: inout Tally
    ) -> Decimal? {
        guard let price = pricing.price(transaction) else {
            tally.unpriced.insert(transaction.transactionID)
            return nil
        }
        let money = pricing.money(of: transaction, in: chain, price: price, refunds: refunds)
        let amount = proceeds ? money.proceeds : money.revenue
        guard let converted = pricing.convert(amount, price.currency, day) else {
            tally.missingRates.insert(price.currency)
            return nil
        }
        return converted
    }

    private func key(_ grouping: ReportGrouping?, _ chain: ReportedSubscription, _ transaction: TransactionFact) -> String? {
        grouping?.key(bundleID: chain.bundleID, productID: transaction.productID, storefront: transaction.storefront)
    }
}
