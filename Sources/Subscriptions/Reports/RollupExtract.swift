import Foundation

/// What one report reads from the stored rollups (``RollupReport`` turns it into the
/// answer). Amounts are already filtered by the query (environment, app, product) and keyed
/// by its group ("" when it has none).
public struct RollupExtract: Sendable, Equatable {
    /// A sum of one measure: on a day (nil for a level's opening), in a group and currency.
    public struct Amount: Sendable, Equatable {
        public let day: Date?
        public let group: String
        public let currency: String
        public let amount: Decimal

        public init(day: Date?, group: String, currency: String, amount: Decimal) {
            self.day = day
            self.group = group
            self.currency = currency
            self.amount = amount
        }
    }

    /// For each level measure: its level at the query's first day (the changes on or before it).
    public var opening: [RollupMeasure: [Amount]] = [:]
    /// For each level measure, its changes on each day after the first through the last
    /// interval's end; for each flow, its sums on each day asked.
    public var days: [RollupMeasure: [Amount]] = [:]
    /// For `churn`: per interval clipped to the days asked (``ReportQuery/clippedBuckets``),
    /// the chains paid at its start and not at its end; whole intervals read the churn measure.
    public var churned: [Int] = []
    /// For `trial_conversion`: per interval, the trials started in it, neither converted nor
    /// revoked, that are still running now.
    public var pending: [Int] = []
    /// Paid transactions in the answer's reach without a price: some of their ids, and how many.
    public var unpriced: [String] = []
    public var unpricedCount = 0

    public init() {}

    /// The measures a report of `metric` reads: levels and flows.
    public static func measures(for query: ReportQuery) -> (levels: [RollupMeasure], flows: [RollupMeasure]) {
        switch query.metric {
        case .activeSubscriptions: ([.active], [])
        case .churn: ([.active], [.churned(query.interval)])
        case .activeTrials: ([.trial], [])
        case .mrr, .arr: ([query.proceeds ? .mrrProceeds : .mrr], [])
        case .newSubscriptions: ([], [.newPaid])
        case .newTrials: ([], [.newTrial])
        case .trialConversion: ([], [.trialStarted, .trialConverted])
        case .revenue: ([], [.revenue])
        case .proceeds: ([], [.proceeds])
        case .refundRate: ([], [.sold, .refunded])
        }
    }

    /// The span kinds a report of `metric` names unpriced purchases from.
    public static func unpricedKind(for metric: ReportMetric) -> RollupSpan.Kind? {
        switch metric {
        case .mrr, .arr: .unpricedPeriod
        case .revenue, .proceeds: .unpricedSale
        default: nil
        }
    }

    /// The midnights that bound the query's intervals: the first one's start, then each end.
    public static func bounds(of query: ReportQuery) -> [Date] {
        let buckets = query.buckets
        guard let first = buckets.first else { return [] }
        return [first.start] + buckets.map(\.end)
    }
}

/// A report's answer from the rollups (``RollupExtract``), exactly as ``ReportEvaluator``
/// computes it from the facts.
public enum RollupReport {
    /// The answer to `query` from `extract`, converting money with `convert` (the pricing's).
    public static func answer(
        _ query: ReportQuery, from extract: RollupExtract, convert: (Decimal, String, Date) -> Decimal?
    ) -> ReportAnswer {
        let buckets = query.buckets
        var missingRates = Set<String>()
        func converted(_ amount: Decimal, _ currency: String, _ day: Date) -> Decimal? {
            if currency.isEmpty { return amount }
            guard let value = convert(amount, currency, day) else {
                missingRates.insert(currency)
                return nil
            }
            return value
        }
        // Sums per interval: a level at each interval's start and end, a flow over it, by
        // group (converted, amounts at the interval's last day or each sale's day).
        func levels(_ measure: RollupMeasure) -> (starts: [[String: Decimal]], ends: [[String: Decimal]]) {
            var running: [String: [String: Decimal]] = [:]  // group → currency → level
            for amount in extract.opening[measure] ?? [] {
                running[amount.group, default: [:]][amount.currency, default: 0] += amount.amount
            }
            let changes = (extract.days[measure] ?? []).sorted { ($0.day ?? .distantPast) < ($1.day ?? .distantPast) }
            var next = 0
            var starts: [[String: Decimal]] = []
            var ends: [[String: Decimal]] = []
            func value(at lastDay: Date) -> [String: Decimal] {
                var result: [String: Decimal] = [:]
                for (group, currencies) in running {
                    for (currency, level) in currencies where level != 0 {
                        if let amount = converted(level, currency, lastDay) { result[group, default: 0] += amount }
                    }
                }
                return result
            }
            var previous: [String: Decimal]?
            for bucket in buckets {
                starts.append(previous ?? value(at: bucket.start.addingTimeInterval(-86_400)))
                while next < changes.count, let day = changes[next].day, day <= bucket.end {
                    running[changes[next].group, default: [:]][changes[next].currency, default: 0] += changes[next].amount
                    next += 1
                }
                let end = value(at: bucket.end.addingTimeInterval(-86_400))
                ends.append(end)
                previous = end
            }
            return (starts, ends)
        }
        func flows(_ measure: RollupMeasure) -> [[String: Decimal]] {
            var sums = Array(repeating: [String: Decimal](), count: buckets.count)
            for amount in extract.days[measure] ?? [] {
                guard let day = amount.day, let index = buckets.firstIndex(where: { $0.start <= day && day < $0.end }),
                    let value = converted(amount.amount, amount.currency, day)
                else { continue }
                sums[index][amount.group, default: 0] += value
            }
            return sums
        }
        func total(_ groups: [String: Decimal]) -> Decimal { groups.values.reduce(0, +) }
        func count(_ groups: [String: Decimal]) -> Int { NSDecimalNumber(decimal: total(groups)).intValue }
        func point(_ index: Int, _ groups: [String: Decimal], factor: Decimal = 1) -> ReportAnswer.Point {
            ReportAnswer.Point(
                date: buckets[index].start, value: total(groups) * factor,
                groups: query.groupBy == nil ? [:] : groups.filter { $0.value != 0 }.mapValues { $0 * factor }, counts: [:])
        }
        func rate(_ index: Int, _ counts: [String: Int], _ numerator: String, _ denominator: String) -> ReportAnswer.Point {
            let base = counts[denominator] ?? 0
            return ReportAnswer.Point(
                date: buckets[index].start, value: base == 0 ? nil : Decimal(counts[numerator] ?? 0) / Decimal(base), groups: [:],
                counts: counts)
        }
        let points: [ReportAnswer.Point]
        switch query.metric {
        case .activeSubscriptions, .activeTrials, .mrr, .arr:
            let measure = RollupExtract.measures(for: query).levels[0]
            let factor: Decimal = query.metric == .arr ? 12 : 1
            points = levels(measure).ends.enumerated().map { point($0.offset, $0.element, factor: factor) }
        case .newSubscriptions, .newTrials, .revenue, .proceeds:
            let measure = RollupExtract.measures(for: query).flows[0]
            points = flows(measure).enumerated().map { point($0.offset, $0.element) }
        case .churn:
            let starts = levels(.active).starts
            let whole = flows(.churned(query.interval))
            let clipped = Set(query.clippedBuckets)
            points = buckets.indices.map { index in
                let churned =
                    clipped.contains(index)
                    ? (extract.churned.indices.contains(index) ? extract.churned[index] : 0) : count(whole[index])
                return rate(index, ["churned": churned, "base": count(starts[index])], "churned", "base")
            }
        case .trialConversion:
            let started = flows(.trialStarted)
            let converted = flows(.trialConverted)
            points = buckets.indices.map { index in
                rate(
                    index,
                    [
                        "converted": count(converted[index]), "started": count(started[index]),
                        "pending": extract.pending.indices.contains(index) ? extract.pending[index] : 0,
                    ], "converted", "started")
            }
        case .refundRate:
            let sold = flows(.sold)
            let refunded = flows(.refunded)
            points = buckets.indices.map { index in
                rate(index, ["refunded": count(refunded[index]), "sold": count(sold[index])], "refunded", "sold")
            }
        }
        return ReportAnswer(
            query: query, points: points, missingRates: missingRates.sorted(),
            warnings: ReportAnswer.warnings(unpriced: extract.unpriced, count: extract.unpricedCount))
    }
}
