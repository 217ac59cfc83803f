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
        let end = to.addingTimeInterval(86_400)
        var result: [DateInterval] = []
        var start = from
        while start < end {
            let next = min(interval.end(ofIntervalAt: start), end)
            result.append(DateInterval(start: start, end: next))
            start = next
        }
        return result
    }

    /// The indexes of ``buckets`` clipped to the days asked (the first when `from` is not the
    /// interval's first day, the last when `to` is not its last): at most two.
    public var clippedBuckets: [Int] {
        buckets.enumerated().filter { !interval.isWhole($0.element) }.map(\.offset)
    }
}

extension ReportInterval {
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// The first day (midnight UTC) of the interval `day` falls in.
    public func start(ofIntervalAt day: Date) -> Date {
        switch self {
        case .day: UTCDay.floor(day)
        case .week: Self.calendar.dateInterval(of: .weekOfYear, for: day)?.start ?? UTCDay.floor(day)
        case .month: Self.calendar.dateInterval(of: .month, for: day)?.start ?? UTCDay.floor(day)
        }
    }

    /// The midnight the interval `day` falls in ends at.
    public func end(ofIntervalAt day: Date) -> Date {
        let start = start(ofIntervalAt: day)
        switch self {
        case .day: return start.addingTimeInterval(86_400)
        case .week: return start.addingTimeInterval(7 * 86_400)
        case .month: return Self.calendar.date(byAdding: .month, value: 1, to: start) ?? start.addingTimeInterval(28 * 86_400)
        }
    }

    /// True when `bucket` is a whole interval, not one clipped to the days asked.
    public func isWhole(_ bucket: DateInterval) -> Bool {
        start(ofIntervalAt: bucket.start) == bucket.start && end(ofIntervalAt: bucket.start) == bucket.end
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
