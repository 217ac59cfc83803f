import AppStore
import Foundation

/// What one purchase chain adds to the reports, as known now: the stretches of time it was
/// paid and active or in a free trial, the day it started, its trials and how they ended, and
/// each transaction sold. The daily rollups are sums of these; recomputing a chain's
/// contributions after its facts change, and replacing the old ones, keeps them current.
public struct ChainContributions: Sendable, Equatable {
    /// Where a number falls: the chain's app and environment, the product and storefront of
    /// the transaction it is about.
    public struct Dimensions: Sendable, Hashable {
        public let environment: AppStoreEnvironment
        public let bundleID: String
        public let productID: String
        public let storefront: String?

        public init(environment: AppStoreEnvironment, bundleID: String, productID: String, storefront: String?) {
            self.environment = environment
            self.bundleID = bundleID
            self.productID = productID
            self.storefront = storefront
        }
    }

    /// A stretch `[start, end)` of time (end nil: open) in which the chain is in one state:
    /// paid (active or in grace) at one period's price, or in a free trial.
    public struct Stretch: Sendable, Equatable {
        public let start: Date
        public let end: Date?
        public let trial: Bool
        public let dimensions: Dimensions
        /// The period's price and proceeds per month, in `currency`; nil when unpriced or the
        /// period's length is unknown (then `unpricedTransactionID` says which).
        public let monthly: (price: Decimal, proceeds: Decimal)?
        public let currency: String?
        public let unpricedTransactionID: String?
        /// For a paid stretch: when the paid run it belongs to ends (nil: not yet) and when
        /// the next one starts (nil: none), for churn.
        public let runEnd: Date?
        public let nextRunStart: Date?

        public static func == (lhs: Stretch, rhs: Stretch) -> Bool {
            lhs.start == rhs.start && lhs.end == rhs.end && lhs.trial == rhs.trial && lhs.dimensions == rhs.dimensions
                && lhs.monthly?.price == rhs.monthly?.price && lhs.monthly?.proceeds == rhs.monthly?.proceeds
                && lhs.currency == rhs.currency && lhs.unpricedTransactionID == rhs.unpricedTransactionID && lhs.runEnd == rhs.runEnd
                && lhs.nextRunStart == rhs.nextRunStart
        }

        /// True when the stretch covers `instant`.
        public func covers(_ instant: Date) -> Bool { start <= instant && end.map { instant < $0 } ?? true }
    }

    /// The chain's first period.
    public struct Start: Sendable, Equatable {
        public let at: Date
        public let trial: Bool
        public let dimensions: Dimensions
    }

    /// A free trial and how it ended, as known now.
    public struct Trial: Sendable, Equatable {
        public let start: Date
        public let end: Date?
        public let converted: Bool
        public let revoked: Bool
        public let dimensions: Dimensions
    }

    /// A paid transaction sold: what it brought, in its currency.
    public struct Sale: Sendable, Equatable {
        public let at: Date
        public let dimensions: Dimensions
        public let transactionID: String
        /// Revenue and proceeds net of refunds; nil when unpriced.
        public let revenue: Decimal?
        public let proceeds: Decimal?
        public let currency: String?
        /// The price was more than zero: it counts in the refund rate.
        public let counted: Bool
        public let refunded: Bool
    }

    public let stretches: [Stretch]
    public let start: Start?
    public let trials: [Trial]
    public let sales: [Sale]

    /// The contributions of `chain` under `pricing` (its prices, periods, tax and commission;
    /// exchange rates are not used: amounts stay in their currency until a report converts them).
    public static func of(_ chain: ReportedSubscription, pricing: ReportPricing) -> ChainContributions {
        func dimensions(_ transaction: TransactionFact) -> Dimensions {
            Dimensions(
                environment: chain.environment, bundleID: chain.bundleID, productID: transaction.productID,
                storefront: transaction.storefront)
        }
        var sales: [Sale] = []
        for transaction in chain.transactions where transaction.isPaid {
            let price = pricing.price(transaction)
            let money = price.map { pricing.money(of: transaction, in: chain, price: $0, refunds: true) }
            sales.append(
                Sale(
                    at: transaction.purchaseDate, dimensions: dimensions(transaction), transactionID: transaction.transactionID,
                    revenue: money?.revenue, proceeds: money?.proceeds, currency: price?.currency,
                    counted: (price?.amount ?? 0) > 0, refunded: transaction.refundedShare != nil))
        }
        guard chain.isAutoRenewable, let first = chain.transactions.first else {
            return ChainContributions(stretches: [], start: nil, trials: [], sales: sales)
        }
        let trials = chain.transactions.filter(\.isTrialPeriod).map { trial in
            Trial(
                start: trial.purchaseDate, end: trial.expiresDate,
                converted: chain.transactions.contains { $0.isPaid && $0.purchaseDate >= trial.purchaseDate && $0.refundedShare == nil },
                revoked: trial.cancellationDate != nil, dimensions: dimensions(trial))
        }
        return ChainContributions(
            stretches: stretches(of: chain, pricing: pricing, dimensions: dimensions),
            start: Start(at: first.purchaseDate, trial: first.isTrialPeriod, dimensions: dimensions(first)), trials: trials, sales: sales)
    }

    /// The chain's states between the instants at which any can change (every purchase,
    /// expiry, refund and grace end), merged where they are the same.
    private static func stretches(
        of chain: ReportedSubscription, pricing: ReportPricing, dimensions: (TransactionFact) -> Dimensions
    ) -> [Stretch] {
        var instants = Set<Date>()
        for transaction in chain.transactions {
            instants.insert(transaction.purchaseDate)
            if let expires = transaction.expiresDate { instants.insert(expires) }
            if let cancelled = transaction.cancellationDate { instants.insert(cancelled) }
        }
        if let grace = chain.renewal?.gracePeriodExpiresDate { instants.insert(grace) }
        let sorted = instants.sorted()
        // (start, end, state) for each stretch in which the chain is paid or in a trial.
        var raw: [(start: Date, end: Date?, state: ReportedSubscription.ReportState)] = []
        for (index, instant) in sorted.enumerated() {
            guard let state = chain.reportState(at: instant), state.paid || state.trial else { continue }
            let end = index + 1 < sorted.count ? sorted[index + 1] : nil
            if let last = raw.last, last.end == instant, last.state == state {
                raw[raw.count - 1].end = end
            } else {
                raw.append((instant, end, state))
            }
        }
        // Paid runs: consecutive paid stretches without a gap.
        var runs: [(start: Date, end: Date?)] = []
        for stretch in raw where stretch.state.paid {
            if let last = runs.last, last.end == stretch.start {
                runs[runs.count - 1].end = stretch.end
            } else {
                runs.append((stretch.start, stretch.end))
            }
        }
        return raw.map { stretch in
            let transaction = stretch.state.transaction
            let price = pricing.price(transaction)
            let factor = pricing.period(transaction)?.monthlyFactor
            var monthly: (price: Decimal, proceeds: Decimal)?
            if stretch.state.paid, let price, let factor {
                let money = pricing.money(of: transaction, in: chain, price: price, refunds: false)
                monthly = (money.revenue * factor, money.proceeds * factor)
            }
            let runIndex =
                stretch.state.paid ? runs.firstIndex { $0.start <= stretch.start && ($0.end.map { stretch.start < $0 } ?? true) } : nil
            return Stretch(
                start: stretch.start, end: stretch.end, trial: stretch.state.trial, dimensions: dimensions(transaction), monthly: monthly,
                currency: price?.currency,
                unpricedTransactionID: stretch.state.paid && factor != nil && price == nil ? transaction.transactionID : nil,
                runEnd: runIndex.flatMap { runs[$0].end },
                nextRunStart: runIndex.flatMap { $0 + 1 < runs.count ? runs[$0 + 1].start : nil })
        }
    }
}
