import AppStore
import Foundation
import Subscriptions

/// A report's answer as the contract writes it (DESIGN.md, "Money and reports"):
/// `{"metric", "currency", "interval", "from", "to", "points": [{"date", "value", "groups"}],
/// "missing_rates", "warnings"}`; a rate's point also carries the counts it is made of.
/// Amounts are rounded to 2 decimals and rates to 4.
public struct ReportDocument: Encodable, Sendable {
    public let answer: ReportAnswer
    /// The report currency.
    public let currency: String

    public init(answer: ReportAnswer, currency: String) {
        self.answer = answer
        self.currency = currency
    }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// One point as written.
    public struct Point: Encodable, Sendable {
        public let date: String
        public let value: Decimal?
        public let groups: [String: Decimal]?
        public let counts: [String: Int]

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(date, forKey: Key("date"))
            try container.encode(value, forKey: Key("value"))
            if let groups { try container.encode(groups, forKey: Key("groups")) }
            for (name, count) in counts { try container.encode(count, forKey: Key(name)) }
        }
    }

    /// The points as written: days as `YYYY-MM-DD`, numbers rounded.
    public var points: [Point] {
        let places = answer.query.metric.isAmount ? 2 : (answer.query.metric.isRate ? 4 : 0)
        return answer.points.map { point in
            Point(
                date: UTCDay.text(point.date), value: point.value.map { Self.rounded($0, places) },
                groups: answer.query.groupBy == nil ? nil : point.groups.mapValues { Self.rounded($0, places) }, counts: point.counts)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        let query = answer.query
        try container.encode(query.metric.rawValue, forKey: Key("metric"))
        try container.encode(query.metric.isAmount ? currency : nil, forKey: Key("currency"))
        try container.encode(query.interval.rawValue, forKey: Key("interval"))
        try container.encode(UTCDay.text(query.from), forKey: Key("from"))
        try container.encode(UTCDay.text(query.to), forKey: Key("to"))
        try container.encode(query.environment.rawValue, forKey: Key("environment"))
        if let app = query.app { try container.encode(app, forKey: Key("app")) }
        if let product = query.product { try container.encode(product, forKey: Key("product")) }
        if let groupBy = query.groupBy { try container.encode(groupBy.rawValue, forKey: Key("group_by")) }
        if query.metric == .mrr || query.metric == .arr {
            try container.encode(query.proceeds ? "proceeds" : "price", forKey: Key("amount"))
        }
        try container.encode(points, forKey: Key("points"))
        try container.encode(answer.missingRates, forKey: Key("missing_rates"))
        try container.encode(answer.warnings, forKey: Key("warnings"))
    }

    /// `value` to `places` decimals, half up, after first dropping what lies beyond 12
    /// decimals: a month's share of a yearly price has no end of digits, and the same
    /// half-cent reached by two orders of addition can land a hair on either side of it.
    static func rounded(_ value: Decimal, _ places: Int) -> Decimal {
        var value = value
        var clean = Decimal()
        NSDecimalRound(&clean, &value, 12, .plain)
        var result = Decimal()
        NSDecimalRound(&result, &clean, places, .plain)
        return result
    }
}
