import Foundation

/// What the daily rollups keep, measure by measure. A level (how many are active, the MRR)
/// is kept as changes: +1 or +price on the midnight from which a stretch counts, −1 or −price
/// on the midnight from which it no longer does; the level at a midnight is the sum of the
/// changes on or before it. A flow (new subscriptions, revenue) is kept on the UTC day it
/// happened.
public enum RollupMeasure: String, CaseIterable, Sendable {
    /// Paid subscriptions, active or in grace (level, count).
    case active
    /// Subscriptions in a free trial (level, count).
    case trial
    /// The paid subscriptions' prices per month (level, per currency).
    case mrr
    /// Their estimated proceeds per month (level, per currency).
    case mrrProceeds = "mrr_proceeds"
    /// Chains whose first period is paid, on its day (flow, count).
    case newPaid = "new_paid"
    /// Chains whose first period is a free trial (flow, count).
    case newTrial = "new_trial"
    /// Free trials started, on their day (flow, count).
    case trialStarted = "trial_started"
    /// Those of them followed by a paid, unrefunded period, on the trial's day (flow, count).
    case trialConverted = "trial_converted"
    /// Paid transactions' prices net of refunds, on the day bought (flow, per currency).
    case revenue
    /// Their estimated proceeds (flow, per currency).
    case proceeds
    /// Paid transactions with a price above zero, on the day bought (flow, count).
    case sold
    /// Those of them refunded (flow, count).
    case refunded
    /// Chains paid at the start of a whole day, week or month and not at its end, on the
    /// interval's first day (flow, count; by the stretch paid at the start).
    case churnedDay = "churned_day"
    case churnedWeek = "churned_week"
    case churnedMonth = "churned_month"

    /// The churn measure of whole intervals of `interval`.
    public static func churned(_ interval: ReportInterval) -> RollupMeasure {
        switch interval {
        case .day: .churnedDay
        case .week: .churnedWeek
        case .month: .churnedMonth
        }
    }

    /// True for the measures kept as changes of a level.
    public var isLevel: Bool {
        switch self {
        case .active, .trial, .mrr, .mrrProceeds: true
        default: false
        }
    }
}

/// Where one rollup amount is kept: a measure, a UTC day (midnight), where it falls and, for
/// money, its currency ("" for counts).
public struct RollupKey: Sendable, Hashable {
    public let measure: RollupMeasure
    public let day: Date
    public let dimensions: ChainContributions.Dimensions
    public let currency: String

    public init(measure: RollupMeasure, day: Date, dimensions: ChainContributions.Dimensions, currency: String = "") {
        self.measure = measure
        self.day = day
        self.dimensions = dimensions
        self.currency = currency
    }
}

/// What the rollups keep of one chain beside its day sums, for the numbers that are not sums
/// of days: churn (paid stretches and their runs), pending trials (still running now) and
/// the purchases without a price a report must name.
public struct RollupSpan: Sendable, Equatable {
    public enum Kind: String, CaseIterable, Sendable {
        /// A paid stretch `[start, end)`, with the end of its paid run and the start of the next.
        case paid
        /// A free trial `[start, end)` neither converted nor revoked.
        case openTrial = "open_trial"
        /// A paid stretch whose price nobody knows (`transactionID` names the period).
        case unpricedPeriod = "unpriced_period"
        /// A paid transaction bought at `start` whose price nobody knows.
        case unpricedSale = "unpriced_sale"
    }

    public let kind: Kind
    public let start: Date
    public let end: Date?
    public let runEnd: Date?
    public let nextRunStart: Date?
    public let dimensions: ChainContributions.Dimensions
    public let transactionID: String?

    public init(
        kind: Kind, start: Date, end: Date?, runEnd: Date? = nil, nextRunStart: Date? = nil, dimensions: ChainContributions.Dimensions,
        transactionID: String? = nil
    ) {
        self.kind = kind
        self.start = start
        self.end = end
        self.runEnd = runEnd
        self.nextRunStart = nextRunStart
        self.dimensions = dimensions
        self.transactionID = transactionID
    }

    /// True when the span covers `instant`.
    public func covers(_ instant: Date) -> Bool { start <= instant && end.map { instant < $0 } ?? true }
}

/// One chain's share of the rollups: its amounts by key and its spans. Replacing a chain's
/// old share with its new one (``change(from:to:)``) keeps the rollups equal to a rebuild.
public struct ChainRollup: Sendable, Equatable {
    public var amounts: [RollupKey: Decimal]
    public var spans: [RollupSpan]

    public init(amounts: [RollupKey: Decimal] = [:], spans: [RollupSpan] = []) {
        self.amounts = amounts
        self.spans = spans
    }

    /// The share of a chain with `contributions`.
    public static func of(_ contributions: ChainContributions) -> ChainRollup {
        var rollup = ChainRollup()
        func add(
            _ measure: RollupMeasure, _ instant: Date, _ dimensions: ChainContributions.Dimensions, _ amount: Decimal,
            _ currency: String = ""
        ) {
            let day = measure.isLevel ? UTCDay.ceiling(instant) : UTCDay.floor(instant)
            let key = RollupKey(measure: measure, day: day, dimensions: dimensions, currency: currency)
            rollup.amounts[key, default: 0] += amount
        }
        func level(_ measure: RollupMeasure, _ stretch: ChainContributions.Stretch, _ amount: Decimal, _ currency: String = "") {
            add(measure, stretch.start, stretch.dimensions, amount, currency)
            if let end = stretch.end { add(measure, end, stretch.dimensions, -amount, currency) }
        }
        for stretch in contributions.stretches {
            if stretch.trial {
                level(.trial, stretch, 1)
                continue
            }
            level(.active, stretch, 1)
            if let monthly = stretch.monthly, let currency = stretch.currency {
                level(.mrr, stretch, monthly.price, currency)
                level(.mrrProceeds, stretch, monthly.proceeds, currency)
            }
            rollup.spans.append(
                RollupSpan(
                    kind: .paid, start: stretch.start, end: stretch.end, runEnd: stretch.runEnd, nextRunStart: stretch.nextRunStart,
                    dimensions: stretch.dimensions))
            if let unpriced = stretch.unpricedTransactionID {
                rollup.spans.append(
                    RollupSpan(
                        kind: .unpricedPeriod, start: stretch.start, end: stretch.end, dimensions: stretch.dimensions,
                        transactionID: unpriced))
            }
        }
        // Churn over whole intervals: a chain can only be paid at an interval's start and not
        // at its end when one of its paid runs ends inside it; each such interval once.
        let paid = contributions.stretches.filter { !$0.trial }
        var churnChecked = Set<RollupKey>()
        for runEnd in Set(paid.compactMap(\.runEnd)) {
            let lastDay = UTCDay.ceiling(runEnd).addingTimeInterval(-86_400)
            for interval in ReportInterval.allCases {
                let start = interval.start(ofIntervalAt: lastDay)
                let end = interval.end(ofIntervalAt: lastDay)
                guard let atStart = paid.first(where: { $0.covers(start) }), !paid.contains(where: { $0.covers(end) }) else { continue }
                let key = RollupKey(measure: .churned(interval), day: start, dimensions: atStart.dimensions)
                if churnChecked.insert(key).inserted { rollup.amounts[key, default: 0] += 1 }
            }
        }
        if let start = contributions.start {
            add(start.trial ? .newTrial : .newPaid, start.at, start.dimensions, 1)
        }
        for trial in contributions.trials {
            add(.trialStarted, trial.start, trial.dimensions, 1)
            if trial.converted {
                add(.trialConverted, trial.start, trial.dimensions, 1)
            } else if !trial.revoked, let end = trial.end {
                rollup.spans.append(RollupSpan(kind: .openTrial, start: trial.start, end: end, dimensions: trial.dimensions))
            }
        }
        for sale in contributions.sales {
            if sale.counted {
                add(.sold, sale.at, sale.dimensions, 1)
                if sale.refunded { add(.refunded, sale.at, sale.dimensions, 1) }
            }
            guard let revenue = sale.revenue, let proceeds = sale.proceeds, let currency = sale.currency else {
                rollup.spans.append(
                    RollupSpan(
                        kind: .unpricedSale, start: sale.at, end: nil, dimensions: sale.dimensions, transactionID: sale.transactionID))
                continue
            }
            add(.revenue, sale.at, sale.dimensions, revenue, currency)
            add(.proceeds, sale.at, sale.dimensions, proceeds, currency)
        }
        rollup.amounts = rollup.amounts.filter { $0.value != 0 }
        return rollup
    }

    /// What to add to the day sums when a chain's share moves from `old` to `new`: the new
    /// amounts and the old ones negated, for the keys whose amount changes. Left unsummed, so
    /// the database adds them exactly (PostgreSQL's `numeric` has no rounding; `Decimal` keeps
    /// 38 digits), and counting changes one by one ends where a rebuild does.
    public static func changes(from old: [RollupKey: Decimal], to new: [RollupKey: Decimal]) -> [(key: RollupKey, amount: Decimal)] {
        var changes: [(key: RollupKey, amount: Decimal)] = []
        for (key, amount) in new where old[key] != amount { changes.append((key, amount)) }
        for (key, amount) in old where new[key] != amount { changes.append((key, -amount)) }
        return changes
    }
}
