import Access
import AppStore
import Foundation
import Subscriptions

/// `GET /v1/reports/{metric}` and `subscriptionctl report`: the business's numbers, read
/// from the rollups and converted into the report currency at the imported rates.
public struct Reports: Sendable {
    private let rollups: any ReportRollups
    private let rates: ExchangeRateImport

    public init(rollups: any ReportRollups, rates: ExchangeRateImport) {
        self.rollups = rollups
        self.rates = rates
    }

    /// The report currency (`REPORT_CURRENCY`).
    public var currency: String { rates.reportCurrency }

    /// The longest range a report at day interval covers: five years of days.
    public static let longestDayRange = 5 * 366

    /// The answer to the report asked by `parameters` (the query string's names: `from`, `to`,
    /// `interval`, `app`, `product`, `environment`, `group_by`, `amount`), for a principal
    /// seeing `apps`; `now` ends the default range and decides which trials are still running.
    public func answer(
        metric: String, parameters: [String: String], apps: AppScope = .all, now: Date = Date()
    ) async throws
        -> ReportAnswer
    {
        let query = try Self.query(metric: metric, parameters: parameters, apps: apps, now: now)
        let extract = try await rollups.extract(query, now: now)
        let rates = try await self.rates.rates()
        return RollupReport.answer(query, from: extract, convert: { rates.convert($0, $1, on: $2) })
    }

    /// The query `parameters` ask for, or the parameter that is wrong.
    public static func query(metric: String, parameters: [String: String], apps: AppScope, now: Date) throws -> ReportQuery {
        guard let metric = ReportMetric(rawValue: metric) else {
            throw UseCaseError.notFound(
                "unknown metric \"\(metric)\"; the metrics are \(ReportMetric.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let known: Set<String> = ["from", "to", "interval", "app", "product", "environment", "group_by", "amount"]
        if let unknown = parameters.keys.sorted().first(where: { !known.contains($0) }) {
            throw UseCaseError.malformed("unknown parameter \"\(unknown)\"; the parameters are \(known.sorted().joined(separator: ", "))")
        }
        func day(_ name: String, default value: Date) throws -> Date {
            guard let text = parameters[name] else { return value }
            guard let day = UTCDay.parse(text) else {
                throw UseCaseError.malformed("\(name) must be a day such as 2026-11-01, got \"\(text)\"")
            }
            return day
        }
        let to = try day("to", default: UTCDay.floor(now))
        let from = try day("from", default: to.addingTimeInterval(-29 * 86_400))
        guard from <= to else { throw UseCaseError.malformed("from (\(UTCDay.text(from))) is after to (\(UTCDay.text(to)))") }
        let interval =
            try parameters["interval"].map { text in
                guard let interval = ReportInterval(rawValue: text) else {
                    throw UseCaseError.malformed(
                        "interval must be one of \(ReportInterval.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(text)\"")
                }
                return interval
            } ?? .day
        let days = Int((to.timeIntervalSince(from) / 86_400).rounded()) + 1
        if interval == .day, days > longestDayRange {
            throw UseCaseError.malformed(
                "interval day covers at most \(longestDayRange) days (five years), asked \(days); ask for interval week or month")
        }
        if days > 20 * 366 { throw UseCaseError.malformed("from and to span \(days) days; a report covers at most twenty years") }
        let groupBy = try parameters["group_by"].map { text in
            guard let grouping = ReportGrouping(rawValue: text) else {
                throw UseCaseError.malformed(
                    "group_by must be one of \(ReportGrouping.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(text)\"")
            }
            return grouping
        }
        let environment =
            try parameters["environment"].map { text in
                guard let environment = AppStoreEnvironment(rawValue: text) else {
                    throw UseCaseError.malformed("environment must be Production, Sandbox or Xcode, got \"\(text)\"")
                }
                return environment
            } ?? .production
        let proceeds: Bool
        switch parameters["amount"] {
        case nil, "price": proceeds = false
        case "proceeds" where metric == .mrr || metric == .arr: proceeds = true
        case let other?:
            throw UseCaseError.malformed("amount must be price or proceeds (for mrr and arr only), got \"\(other)\"")
        }
        var app = parameters["app"].flatMap { $0.isEmpty ? nil : $0 }
        if let app {
            try apps.require(app)
        } else if case .only(let bundleIDs) = apps {
            guard bundleIDs.count == 1, let only = bundleIDs.first else {
                throw UseCaseError.forbidden("the key sees only some apps: name one with app (\(apps.bundleIDs.joined(separator: ", ")))")
            }
            app = only
        }
        return ReportQuery(
            metric: metric, from: from, to: to, interval: interval, environment: environment, app: app,
            product: parameters["product"].flatMap { $0.isEmpty ? nil : $0 }, groupBy: groupBy, proceeds: proceeds)
    }
}
