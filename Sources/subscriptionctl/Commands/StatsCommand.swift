import AppStore
import ArgumentParser
import Composition
import Foundation
import Store
import Subscriptions
import UseCases

/// `subscriptionctl stats`.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Inbox and subscription counts at a glance.",
        discussion: """
            Inbox: notifications per state, the age of the oldest pending one, and the five most \
            common reasons among retrying and among dead notifications. Webhooks: outbound events \
            per state, the lag (age of the oldest undelivered one) and the top failure reasons; \
            and what the receipt retention job did last. Partitions: the months each partitioned \
            table holds and the rows in its default partition. Subscriptions: per \
            stored status and per environment, plus how many stored statuses have run out since \
            they were written (reads recompute those; `subscriptionctl revalidate --all` rewrites them).

            Example:
              subscriptionctl stats
              subscriptionctl stats --json | jq '.notifications.by_state.dead'
            """
    )

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            let queries = context.stats
            let inbox = try await queries.inbox(reasons: 5)
            let subscriptions = try await queries.subscriptions()
            let webhooks = try await queries.webhooks(reasons: 5)
            let retention = try await queries.lastRetention()
            let partitions = try await queries.partitions()
            let now = Date()
            if options.json {
                try Output.json(
                    StatsDocument(
                        inbox: inbox, subscriptions: subscriptions, now: now,
                        webhooks: WebhookStatsDocument(stats: webhooks, retention: retention, now: now),
                        partitions: partitions.map(PartitionStatsDocument.init)))
            } else {
                StatsText(inbox: inbox, subscriptions: subscriptions, now: now).print()
                WebhookStatsText(stats: webhooks, retention: retention, now: now).print()
                PartitionStatsText(tables: partitions).print()
            }
        }
    }
}

/// The human rendering of `stats`.
struct StatsText {
    let inbox: InboxStats
    let subscriptions: SubscriptionStats
    let now: Date

    func print() {
        Output.line(Style.heading("notifications"))
        var states = Table("STATE", "COUNT")
        for state in [InboxState.pending, .retrying, .dead, .processed] {
            states.append([Style.state(state.rawValue), String(inbox.byState[state] ?? 0)])
        }
        Output.line(states.render())
        Output.line(
            "oldest pending: "
                + (inbox.oldestPendingReceivedAt.map {
                    "received \(TimeText.withAge($0, now: now)), waiting \(TimeText.duration(now.timeIntervalSince($0)))"
                } ?? "none"))
        for (state, reasons) in [(InboxState.retrying, inbox.topRetryingReasons), (.dead, inbox.topDeadReasons)] where !reasons.isEmpty {
            Output.line("")
            Output.line("top reasons, \(state.rawValue) (\(inbox.byState[state] ?? 0)):")
            var table = Table("COUNT", "REASON")
            for reason in reasons { table.append([String(reason.count), ErrorText.short(reason.reason, limit: 100)]) }
            Output.line(table.render())
        }

        Output.line("")
        Output.line(Style.heading("subscriptions") + " (\(subscriptions.total))")
        var statuses = Table("STATUS", "COUNT")
        for status in SubscriptionStatus.allCases {
            statuses.append([Style.status(status.rawValue), String(subscriptions.byStatus[status] ?? 0)])
        }
        Output.line(statuses.render())
        Output.line("")
        var environments = Table("ENVIRONMENT", "COUNT")
        for environment in ["Production", "Sandbox"] {
            environments.append([environment, String(subscriptions.byEnvironment[environment] ?? 0)])
        }
        Output.line(environments.render())
        if subscriptions.stale == 1 {
            Output.line("")
            Output.line("1 stored status has run out since it was written: reads recompute it, the status sweep moves it")
        } else if subscriptions.stale > 1 {
            Output.line("")
            Output.line(
                "\(subscriptions.stale) stored statuses have run out since they were written: reads recompute them, "
                    + "the status sweep moves them")
        }
        Output.line(
            "status sweep: "
                + (subscriptions.oldestDueAt.map {
                    "\(subscriptions.sweepDue) due, the oldest \(TimeText.duration(now.timeIntervalSince($0))) behind"
                } ?? "nothing due"))
        Output.line(
            "entitlement reviews: "
                + (subscriptions.oldestReviewDueAt.map {
                    "\(subscriptions.reviewsDue) due, the oldest \(TimeText.duration(now.timeIntervalSince($0))) behind"
                } ?? "nothing due"))
    }
}

/// `stats --json`.
struct StatsDocument: Encodable {
    let inbox: InboxStats
    let subscriptions: SubscriptionStats
    let now: Date
    let webhooks: WebhookStatsDocument
    let partitions: [PartitionStatsDocument]

    enum Keys: String, CodingKey {
        case notifications, subscriptions
        case byState = "by_state", oldestPendingReceivedAt = "oldest_pending_received_at"
        case oldestPendingAgeSeconds = "oldest_pending_age_seconds", topReasons = "top_reasons"
        case retrying, dead, reason, count
        case total, byStatus = "by_status", byEnvironment = "by_environment", stale
        case sweepDue = "sweep_due", sweepLagSeconds = "sweep_lag_seconds"
        case reviewsDue = "entitlement_reviews_due", reviewLagSeconds = "entitlement_review_lag_seconds"
        case webhooks, retention, partitions
    }

    func encode(to encoder: any Encoder) throws {
        var root = encoder.container(keyedBy: Keys.self)
        var notifications = root.nestedContainer(keyedBy: Keys.self, forKey: .notifications)
        try notifications.encode(Dictionary(uniqueKeysWithValues: inbox.byState.map { ($0.key.rawValue, $0.value) }), forKey: .byState)
        try notifications.encode(inbox.oldestPendingReceivedAt, forKey: .oldestPendingReceivedAt)
        try notifications.encode(
            inbox.oldestPendingReceivedAt.map { Int(now.timeIntervalSince($0).rounded()) }, forKey: .oldestPendingAgeSeconds)
        var top = notifications.nestedContainer(keyedBy: Keys.self, forKey: .topReasons)
        for (key, reasons) in [(Keys.retrying, inbox.topRetryingReasons), (.dead, inbox.topDeadReasons)] {
            var list = top.nestedUnkeyedContainer(forKey: key)
            for reason in reasons {
                var item = list.nestedContainer(keyedBy: Keys.self)
                try item.encode(reason.reason, forKey: .reason)
                try item.encode(reason.count, forKey: .count)
            }
        }
        var subscriptionCounts = root.nestedContainer(keyedBy: Keys.self, forKey: .subscriptions)
        try subscriptionCounts.encode(subscriptions.total, forKey: .total)
        try subscriptionCounts.encode(
            Dictionary(uniqueKeysWithValues: subscriptions.byStatus.map { ($0.key.rawValue, $0.value) }), forKey: .byStatus)
        try subscriptionCounts.encode(subscriptions.byEnvironment, forKey: .byEnvironment)
        try subscriptionCounts.encode(subscriptions.stale, forKey: .stale)
        try subscriptionCounts.encode(subscriptions.sweepDue, forKey: .sweepDue)
        try subscriptionCounts.encode(subscriptions.oldestDueAt.map { Int(now.timeIntervalSince($0).rounded()) }, forKey: .sweepLagSeconds)
        try subscriptionCounts.encode(subscriptions.reviewsDue, forKey: .reviewsDue)
        try subscriptionCounts.encode(
            subscriptions.oldestReviewDueAt.map { Int(now.timeIntervalSince($0).rounded()) }, forKey: .reviewLagSeconds)
        try root.encode(webhooks, forKey: .webhooks)
        try root.encode(webhooks.retentionDocument, forKey: .retention)
        try root.encode(partitions, forKey: .partitions)
    }
}
