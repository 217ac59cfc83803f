import AppStore
import ArgumentParser
import Composition
import Foundation
import JSON
import Store
import Subscriptions
import UseCases
import Webhooks

/// `subscriptionctl webhooks show ID`.
struct WebhooksShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one outbound event: its delivery state and the exact body sent.",
        discussion: """
            ID is the outbox id (from `webhooks list`) or the event id (evt_…).

            Example:
              subscriptionctl webhooks show 42
              subscriptionctl webhooks show evt_0f3c… --json | jq '.payload.subscription.status'
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "The outbox id or the event id.")
    var id: String

    func run() async throws {
        try await CommandExecution.withDatabase(options) { context in
            guard let summary = try await context.webhooks.detail(id: id) else {
                throw CommandFailure.notFound("no webhook event with id \(id)")
            }
            let body = try WebhookEventDocument.body(of: summary.event)
            let payload = JSONValue(parsing: String(decoding: body, as: UTF8.self))
            if options.json {
                try Output.json(WebhookEventSummaryDocument(summary: summary, payload: payload))
                return
            }
            let event = summary.event
            let now = Date()
            Output.line(Style.heading("webhook event \(event.id)") + "  \(event.type.rawValue) · " + Style.state(summary.state.rawValue))
            var fields = Fields()
            fields.append("event id", event.eventID)
            if let id = event.originalTransactionID {
                fields.append(
                    event.purchase == nil ? "subscription" : "purchase", "\(id) · \(event.environment.rawValue) · \(event.bundleID)")
            } else {
                fields.append("user", "\(event.appUserIDs.joined(separator: ", ")) · \(event.bundleID)")
            }
            fields.append("created", TimeText.withAge(event.createdAt, now: now))
            if let delivered = summary.deliveredAt { fields.append("delivered", TimeText.withAge(delivered, now: now)) }
            if summary.state == .pending || summary.state == .retrying {
                fields.append("next attempt", TimeText.withAge(summary.nextAttemptAt, now: now))
            }
            fields.append("attempts", String(summary.attempts))
            if let status = summary.lastStatus { fields.append("last status", "HTTP \(status)") }
            if let error = summary.lastError { fields.append("last error", error) }
            Output.line(fields.render())
            Output.line("")
            Output.line(Style.heading("body"))
            Output.line(try payload.map { try Output.prettyJSON($0) } ?? String(decoding: body, as: UTF8.self))
        }
    }
}

/// One event in `webhooks list --json` / `webhooks show --json`.
struct WebhookEventSummaryDocument: Encodable {
    let summary: WebhookEventSummary
    var payload: JSONValue? = nil

    enum Keys: String, CodingKey {
        case id, eventID = "event_id", type, state, bundleID = "bundle_id", environment
        case originalTransactionID = "original_transaction_id", appUserIDs = "app_user_ids", previousStatus = "previous_status"
        case attempts, createdAt = "created_at", deliveredAt = "delivered_at", nextAttemptAt = "next_attempt_at"
        case lastError = "last_error", lastStatus = "last_status", payload
        case reason, from, to, accessContinues = "access_continues"
    }

    func encode(to encoder: any Encoder) throws {
        let event = summary.event
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(event.id, forKey: .id)
        try container.encode(event.eventID, forKey: .eventID)
        try container.encode(event.type.rawValue, forKey: .type)
        try container.encode(summary.state.rawValue, forKey: .state)
        try container.encode(event.bundleID, forKey: .bundleID)
        try container.encode(event.environment.rawValue, forKey: .environment)
        try container.encode(event.originalTransactionID, forKey: .originalTransactionID)
        try container.encode(event.appUserIDs, forKey: .appUserIDs)
        try container.encode(event.previousStatus?.rawValue, forKey: .previousStatus)
        try container.encodeIfPresent(event.detail.reason, forKey: .reason)
        try container.encodeIfPresent(event.detail.from, forKey: .from)
        try container.encodeIfPresent(event.detail.to, forKey: .to)
        try container.encodeIfPresent(event.detail.accessContinues, forKey: .accessContinues)
        try container.encode(summary.attempts, forKey: .attempts)
        try container.encode(event.createdAt, forKey: .createdAt)
        try container.encode(summary.deliveredAt, forKey: .deliveredAt)
        try container.encode(summary.nextAttemptAt, forKey: .nextAttemptAt)
        try container.encode(summary.lastError, forKey: .lastError)
        try container.encode(summary.lastStatus, forKey: .lastStatus)
        if let payload { try container.encode(payload, forKey: .payload) }
    }
}
