import Foundation
import Hummingbird
import ServiceSupport
import StoredAnswers
import Subscriptions
import UseCases

/// The overview: the business's numbers over the last 90 days as charts (from the reports'
/// rollups), and the pipeline's health: the inbox, the outbox, refund requests, failed
/// upstream requests and the replica's lag.
extension ConsoleController {
    func addOverviewRoutes(to console: RouterGroup<Context>) {
        page(console, "") { _, _, session in
            let now = Date()
            async let pipeline = services.pipeline.snapshot(now: now)
            let content = try await OverviewContent.load(
                reports: services.reports, pipeline: try await pipeline, upstreams: services.upstreamErrors.lastHour(at: now),
                replica: services.replica.map { route -> Duration? in route.lastStaleness }, now: now)
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

    /// One line of the pipeline table.
    struct PipelineRow {
        let what: String
        let count: String
        let oldest: String
        let href: String?
        /// True when it needs someone's attention (dead work, failures, a lagging replica).
        let attention: Bool
    }

    struct Pipeline {
        let rows: [PipelineRow]
    }

    let figures: [Figure]
    let charts: [Chart]
    let pipeline: Pipeline
    let currency: String
    let from: String
    let to: String

    /// The last 90 days (UTC) up to `now`.
    ///
    /// `replica` is nil without a replica, `.some(nil)` when it could not be asked.
    static func load(
        reports: Reports, pipeline: PipelineSnapshot, upstreams: [UpstreamErrorWindow.Count], replica: Duration??, now: Date
    ) async throws -> OverviewContent {
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
                    series: [.init(name: "Churn", values: churnAnswer.points.map(\.doubleValue))], format: { NumberText.percent($0) },
                    axisFormat: { NumberText.percent($0) }
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
        return OverviewContent(
            figures: figures, charts: charts, pipeline: Pipeline(rows: pipelineRows(pipeline, upstreams: upstreams, replica: replica)),
            currency: currency, from: from, to: to)
    }

    private static func pipelineRows(
        _ snapshot: PipelineSnapshot, upstreams: [UpstreamErrorWindow.Count], replica: Duration??
    ) -> [PipelineRow] {
        func count(_ value: Int) -> String { NumberText.count(Double(value)) }
        var rows = [
            PipelineRow(
                what: "Notifications waiting (pending)", count: count(snapshot.notificationsPending),
                oldest: ConsoleTime.minute(snapshot.oldestPendingNotificationAt), href: "/console/notifications?state=pending",
                attention: false),
            PipelineRow(
                what: "Notifications retrying", count: count(snapshot.notificationsRetrying),
                oldest: ConsoleTime.minute(snapshot.oldestUnfinishedNotificationAt), href: "/console/notifications?state=retrying",
                attention: snapshot.notificationsRetrying > 0),
            PipelineRow(
                what: "Dead notifications", count: count(snapshot.deadNotifications), oldest: "–",
                href: "/console/notifications?state=dead", attention: snapshot.deadNotifications > 0),
            PipelineRow(
                what: "Last notification processed", count: "–", oldest: ConsoleTime.minute(snapshot.newestProcessedNotificationAt),
                href: nil, attention: false),
            PipelineRow(
                what: "Webhook events waiting or retrying", count: count(snapshot.webhooksUnfinished),
                oldest: ConsoleTime.minute(snapshot.oldestUnfinishedWebhookAt), href: "/console/webhooks?state=retrying",
                attention: snapshot.webhooksRetrying > 0),
            PipelineRow(
                what: "Dead webhook events", count: count(snapshot.deadWebhooks), oldest: "–", href: "/console/webhooks?state=dead",
                attention: snapshot.deadWebhooks > 0),
            PipelineRow(
                what: "Refund requests (CONSUMPTION_REQUEST) to answer", count: count(snapshot.consumptionRequestsPending),
                oldest: snapshot.earliestConsumptionDeadline.map { "due " + ConsoleTime.minute($0) } ?? "–", href: nil,
                attention: false),
        ]
        rows += upstreams.map { upstream in
            PipelineRow(
                what: "Upstream \(upstream.upstream): failed requests, last hour (this process)",
                count: "\(count(upstream.failures)) of \(count(upstream.requests))", oldest: "–", href: nil,
                attention: upstream.failures > 0)
        }
        if let replica {
            rows.append(
                PipelineRow(
                    what: "Read replica lag",
                    count: replica.map { "\(Int($0.components.seconds * 1_000 + $0.components.attoseconds / 1_000_000_000_000_000)) ms" }
                        ?? "not answering: reads go to the primary",
                    oldest: "–", href: nil, attention: replica == nil))
        }
        return rows
    }
}

extension ReportAnswer.Point {
    /// The point's value as a Double (nil: none, such as a rate of an empty base).
    var doubleValue: Double? {
        value.map { NSDecimalNumber(decimal: $0).doubleValue }
    }
}
