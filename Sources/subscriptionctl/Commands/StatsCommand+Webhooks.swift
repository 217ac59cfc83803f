import Foundation
import Store

/// The webhook and retention part of `stats` for people.
struct WebhookStatsText {
    let stats: WebhookStats
    let retention: RetentionRun?
    let now: Date

    func print() {
        Output.line("")
        Output.line(Style.heading("webhooks"))
        var states = Table("STATE", "COUNT")
        for state in [WebhookEventState.pending, .retrying, .dead, .delivered] {
            states.append([Style.state(state.rawValue), String(stats.byState[state] ?? 0)])
        }
        Output.line(states.render())
        Output.line(
            "lag: "
                + (stats.oldestUnfinishedCreatedAt.map {
                    "oldest undelivered event created \(TimeText.withAge($0, now: now))"
                } ?? "none (every event delivered or dead)"))
        if !stats.topFailureReasons.isEmpty {
            Output.line("")
            Output.line("top reasons, retrying and dead:")
            var table = Table("COUNT", "REASON")
            for reason in stats.topFailureReasons { table.append([String(reason.count), ErrorText.short(reason.reason, limit: 100)]) }
            Output.line(table.render())
        }
        Output.line("")
        Output.line(Style.heading("retention"))
        guard let retention else {
            Output.line("has not run yet")
            return
        }
        let signed = retention.dropSigned ? ", \(retention.signedRemoved) signed payloads" : " (signed payloads kept)"
        Output.line(
            "last run \(TimeText.withAge(retention.ranAt, now: now)): removed receipts from \(retention.receiptsRemoved) "
                + "notifications\(signed) processed before \(TimeText.utc(retention.cutoff))")
    }
}

/// `stats --json`: `"webhooks": {"by_state", "oldest_unfinished_created_at", "lag_seconds", "top_reasons"}`
/// and `"retention": {"ran_at", "cutoff", "receipts_removed", "signed_removed", "drop_signed"}` (null before the first run).
struct WebhookStatsDocument: Encodable {
    let stats: WebhookStats
    let retention: RetentionRun?
    let now: Date

    enum Keys: String, CodingKey {
        case byState = "by_state", oldestUnfinishedCreatedAt = "oldest_unfinished_created_at", lagSeconds = "lag_seconds"
        case topReasons = "top_reasons", reason, count
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(Dictionary(uniqueKeysWithValues: stats.byState.map { ($0.key.rawValue, $0.value) }), forKey: .byState)
        try container.encode(stats.oldestUnfinishedCreatedAt, forKey: .oldestUnfinishedCreatedAt)
        try container.encode(stats.oldestUnfinishedCreatedAt.map { max(0, now.timeIntervalSince($0)).rounded() }, forKey: .lagSeconds)
        var list = container.nestedUnkeyedContainer(forKey: .topReasons)
        for reason in stats.topFailureReasons {
            var item = list.nestedContainer(keyedBy: Keys.self)
            try item.encode(reason.reason, forKey: .reason)
            try item.encode(reason.count, forKey: .count)
        }
    }

    /// The retention object (or nil).
    var retentionDocument: RetentionDocument? { retention.map(RetentionDocument.init) }
}

/// The last retention run as JSON.
struct RetentionDocument: Encodable {
    let run: RetentionRun

    enum Keys: String, CodingKey {
        case ranAt = "ran_at", cutoff, receiptsRemoved = "receipts_removed", signedRemoved = "signed_removed", dropSigned = "drop_signed"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(run.ranAt, forKey: .ranAt)
        try container.encode(run.cutoff, forKey: .cutoff)
        try container.encode(run.receiptsRemoved, forKey: .receiptsRemoved)
        try container.encode(run.signedRemoved, forKey: .signedRemoved)
        try container.encode(run.dropSigned, forKey: .dropSigned)
    }
}
