import Foundation
import Hummingbird
import Subscriptions
import UseCases

/// The overview: the business's numbers over the last 90 days as charts (from the reports'
/// rollups), and the pipeline's health.
extension ConsoleController {
    func addOverviewRoutes(to console: RouterGroup<Context>) {
        page(console, "") { _, _, session in
            let now = Date()
            let content = try await OverviewContent.load(reports: services.reports, now: now)
            return try html(PageFrame(title: "Overview", section: "Overview", session: session, content: content), template: "overview")
        }
    }
}

/// The overview's values.
struct OverviewContent {
    /// A number shown large, with what it is.
    struct Figure {
        let label: String
        let value: String
    }

    /// A chart with its caption.
    struct Chart {
        let caption: String
        let svg: String
    }

    let figures: [Figure]
    let charts: [Chart]
    let currency: String
    let from: String
    let to: String

    /// The last 90 days (UTC) up to `now`.
    static func load(reports: Reports, now: Date) async throws -> OverviewContent {
        let to = UTCDay.text(now)
        let from = UTCDay.text(UTCDay.floor(now).addingTimeInterval(-89 * 86_400))
        let range = ["from": from, "to": to, "interval": "day"]
        let weeks = ["from": from, "to": to, "interval": "week"]
        async let actives = reports.answer(metric: "active_subscriptions", parameters: range, now: now)
        async let trials = reports.answer(metric: "active_trials", parameters: range, now: now)
        async let mrr = reports.answer(metric: "mrr", parameters: range, now: now)
        async let revenue = reports.answer(metric: "revenue", parameters: range, now: now)
        async let churn = reports.answer(metric: "churn", parameters: weeks, now: now)
        async let new = reports.answer(metric: "new_subscriptions", parameters: weeks, now: now)
        let (activeAnswer, trialAnswer, mrrAnswer, revenueAnswer, churnAnswer, newAnswer) = try await (
            actives, trials, mrr, revenue, churn, new
        )
        let currency = reports.currency
        let days = activeAnswer.points.map { UTCDay.text($0.date) }
        let weekLabels = churnAnswer.points.map { "week of " + UTCDay.text($0.date) }
        let count: @Sendable (Double) -> String = { NumberText.count($0) }
        let money: @Sendable (Double) -> String = { NumberText.money($0, currency: currency) }
        let charts = [
            Chart(
                caption: "Active subscriptions and free trials at the end of each day",
                svg: LineChart(
                    id: "actives", title: "Active subscriptions and trials", labels: days,
                    series: [
                        .init(name: "Active subscriptions", values: activeAnswer.points.map(\.doubleValue)),
                        .init(name: "Free trials", values: trialAnswer.points.map(\.doubleValue)),
                    ], format: count
                ).svg),
            Chart(
                caption: "Monthly recurring revenue (\(currency)) at the end of each day",
                svg: LineChart(
                    id: "mrr", title: "MRR", labels: days, series: [.init(name: "MRR", values: mrrAnswer.points.map(\.doubleValue))],
                    format: money
                ).svg),
            Chart(
                caption: "Revenue (\(currency)) of each day's purchases, refunds taken off",
                svg: LineChart(
                    id: "revenue", title: "Revenue", labels: days,
                    series: [.init(name: "Revenue", values: revenueAnswer.points.map(\.doubleValue))], format: money
                ).svg),
            Chart(
                caption: "New paid subscriptions and churned subscriptions per week",
                svg: LineChart(
                    id: "new-churned", title: "New and churned subscriptions", labels: weekLabels,
                    series: [
                        .init(name: "New", values: newAnswer.points.map(\.doubleValue)),
                        .init(name: "Churned", values: churnAnswer.points.map { $0.counts["churned"].map(Double.init) }),
                    ], format: count
                ).svg),
            Chart(
                caption: "Churn: the share of the week's starting paid subscriptions not active at its end",
                svg: LineChart(
                    id: "churn", title: "Weekly churn", labels: weekLabels,
                    series: [.init(name: "Churn", values: churnAnswer.points.map(\.doubleValue))], format: { NumberText.percent($0) }
                ).svg),
        ]
        let figures = [
            Figure(label: "Active subscriptions", value: activeAnswer.points.last?.doubleValue.map(count) ?? "–"),
            Figure(label: "Free trials", value: trialAnswer.points.last?.doubleValue.map(count) ?? "–"),
            Figure(label: "MRR", value: mrrAnswer.points.last?.doubleValue.map(money) ?? "–"),
            Figure(
                label: "Revenue, last 30 days",
                value: money(revenueAnswer.points.suffix(30).compactMap(\.doubleValue).reduce(0, +))),
        ]
        return OverviewContent(figures: figures, charts: charts, currency: currency, from: from, to: to)
    }
}

extension ReportAnswer.Point {
    /// The point's value as a Double (nil: none, such as a rate of an empty base).
    var doubleValue: Double? {
        value.map { NSDecimalNumber(decimal: $0).doubleValue }
    }
}
