import AppStore
import Foundation
import JSON
import Store

/// One inbox row in `--json` output; every field present, absent values null.
struct NotificationDocument: Encodable {
    let summary: NotificationSummary

    enum CodingKeys: String, CodingKey {
        case id, source, notificationType = "notification_type", notificationSubtype = "notification_subtype", state, environment,
            bundleID = "bundle_id"
        case originalTransactionID = "original_transaction_id", appUserID = "app_user_id", attempts
        case receivedAt = "received_at", processedAt = "processed_at", nextAttemptAt = "next_attempt_at"
        case lastError = "last_error"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(summary.id, forKey: .id)
        try container.encode(summary.source, forKey: .source)
        try container.encode(summary.notificationType, forKey: .notificationType)
        try container.encode(summary.notificationSubtype, forKey: .notificationSubtype)
        try container.encode(summary.state, forKey: .state)
        try container.encode(summary.environment, forKey: .environment)
        try container.encode(summary.bundleID, forKey: .bundleID)
        try container.encode(summary.originalTransactionID, forKey: .originalTransactionID)
        try container.encode(summary.appUserID, forKey: .appUserID)
        try container.encode(summary.attempts, forKey: .attempts)
        try container.encode(summary.receivedAt, forKey: .receivedAt)
        try container.encode(summary.processedAt, forKey: .processedAt)
        // Only meaningful while the worker still has it to do.
        let open = summary.state == "pending" || summary.state == "retrying"
        try container.encode(open ? summary.nextAttemptAt : nil, forKey: .nextAttemptAt)
        try container.encode(summary.lastError, forKey: .lastError)
    }
}

/// `notifications show --json`: the row, its stored body (as JSON) and its attempts.
struct NotificationDetailDocument: Encodable {
    let detail: NotificationDetail

    /// The stored body as JSON. It is stored without `password`; the key is dropped here
    /// too so that no path can ever print a shared secret, and receipts are redacted.
    var body: JSONValue {
        JSONValue.readableStoredBody(detail.body)
    }

    enum CodingKeys: String, CodingKey { case body, history }

    enum AttemptKeys: String, CodingKey {
        case attempt, startedAt = "started_at", finishedAt = "finished_at", outcome, error
    }

    func encode(to encoder: any Encoder) throws {
        try NotificationDocument(summary: detail.summary).encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(body, forKey: .body)
        var history = container.nestedUnkeyedContainer(forKey: .history)
        for attempt in detail.attempts {
            var item = history.nestedContainer(keyedBy: AttemptKeys.self)
            try item.encode(attempt.attempt, forKey: .attempt)
            try item.encode(attempt.startedAt, forKey: .startedAt)
            try item.encode(attempt.finishedAt, forKey: .finishedAt)
            try item.encode(attempt.outcome, forKey: .outcome)
            try item.encode(attempt.error, forKey: .error)
        }
    }
}
