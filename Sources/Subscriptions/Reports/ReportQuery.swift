import AppStore
import Foundation

/// One report asked: a metric over UTC days `from` through `to` (both included), cut by
/// `interval`, filtered and grouped.
public struct ReportQuery: Sendable, Equatable {
    public var metric: ReportMetric
    /// The first day (midnight UTC).
    public var from: Date
    /// The last day (midnight UTC), included.
    public var to: Date
    public var interval: ReportInterval
    public var environment: AppStoreEnvironment
    public var app: String?
    public var product: String?
    public var groupBy: ReportGrouping?
    /// For `mrr` and `arr`: estimated proceeds instead of prices.
    public var proceeds: Bool

    public init(
        metric: ReportMetric, from: Date, to: Date, interval: ReportInterval = .day, environment: AppStoreEnvironment = .production,
        app: String? = nil, product: String? = nil, groupBy: ReportGrouping? = nil, proceeds: Bool = false
    ) {
        self.metric = metric
        self.from = from
        self.to = to
        self.interval = interval
        self.environment = environment
        self.app = app
        self.product = product
        self.groupBy = groupBy
        self.proceeds = proceeds
    }

    /// The intervals the answer has a point for: aligned to `interval` (weeks start on
    /// Monday), clipped to the days asked.
    public var buckets: [DateInterval] {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let end = to.addingTimeInterval(86_400)
        var result: [DateInterval] = []
        var start = from
        while start < end {
            let next: Date
            switch interval {
            case .day: next = start.addingTimeInterval(86_400)
            case .week:
                let weekStart = calendar.dateInterval(of: .weekOfYear, for: start)?.start ?? start
                next = calendar.date(byAdding: .day, value: 7, to: weekStart) ?? end
            case .month:
                let monthStart = calendar.dateInterval(of: .month, for: start)?.start ?? start
                next = calendar.date(byAdding: .month, value: 1, to: monthStart) ?? end
            }
            result.append(DateInterval(start: start, end: min(next, end)))
            start = min(next, end)
        }
        return result
    }
}

/// A report's answer: one point per interval, in the report currency for amounts.
public struct ReportAnswer: Sendable, Equatable {
    /// One interval's numbers.
    public struct Point: Sendable, Equatable {
        /// The interval's first day.
        public var date: Date
        /// The number; nil for a rate whose base is 0.
        public var value: Decimal?
        /// The number per group, when grouped.
        public var groups: [String: Decimal]
        /// The counts a rate is made of: `churned`/`base`, `converted`/`started`/`pending`.
        public var counts: [String: Int]
    }

    public var query: ReportQuery
    public var points: [Point]
    /// Currencies with no rate for a day they were needed on: those amounts are left out.
    public var missingRates: [String]
    /// What was counted oddly (purchases without a price), in sentences.
    public var warnings: [String]
}

extension ReportAnswer {
    /// The warning about `count` paid transactions with no price, naming some (`ids`).
    static func warnings(unpriced ids: [String], count: Int) -> [String] {
        count == 0
            ? []
            : [
                "\(count) paid transaction(s) with no price from Apple or the catalog are not in the amounts: "
                    + ids.sorted().prefix(5).joined(separator: ", ")
            ]
    }
}
