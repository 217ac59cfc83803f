import Foundation
import Postgres

extension TimelineItem {
    /// An item from a row of the timeline statement, whose columns mean, per kind:
    ///
    /// | kind | subject | subtype | state | origin | note | until | flag |
    /// |---|---|---|---|---|---|---|---|
    /// | transaction | product | product type | revoked/upgraded | v1/v2 | cancellation reason | expires | trial |
    /// | renewal | renews to | expiration intent | auto-renew on/off | | | grace period end | billing retry |
    /// | notification | type | subtype | state | source | last error | | |
    /// | statusChange | new status | old status | | | | | |
    /// | webhookEvent | type | | state | event id | last error | | |
    /// | audit | action | | | actor | detail | | |
    init(row: PostgresRow) throws {
        let rank: Int = try row.decode("kind_rank")
        guard let kind = Kind(rank: rank) else { throw StoreError("timeline kind \(rank)") }
        let at: Date = try row.decode("at")
        let key: String = try row.decode("key")
        let environment: String? = try row.decode("environment")
        let subject: String? = try row.decode("subject")
        let subtype: String? = try row.decode("subtype")
        let state: String? = try row.decode("state")
        let origin: String? = try row.decode("origin")
        let note: String? = try row.decode("note")
        let attempts: Int? = try row.decode("attempts")
        let until: Date? = try row.decode("until")
        let flag: Bool? = try row.decode("flag")
        func id() throws -> Int64 {
            guard let id = try row.decode("ref_id", as: Int64?.self) else { throw StoreError("timeline \(kind) row without an id") }
            return id
        }
        func purchase() throws -> (originalTransactionID: String, environment: String) {
            guard let original = try row.decode("original_transaction_id", as: String?.self), let environment else {
                throw StoreError("timeline \(kind) row without its purchase")
            }
            return (original, environment)
        }
        let title: String
        var detail: [String] = []
        let reference: Reference
        switch kind {
        case .transaction:
            let purchase = try purchase()
            guard let transactionID = try row.decode("transaction_id", as: String?.self) else {
                throw StoreError("timeline transaction row without its id")
            }
            let sale = transactionID == purchase.originalTransactionID ? "Purchase" : "Renewal"
            title = "\(sale) of \(subject ?? "an unknown product")" + (flag == true ? " (trial)" : "") + (state.map { ", \($0)" } ?? "")
            detail = ["transaction \(transactionID)", purchase.environment]
            if let until { detail.append("expires \(until.formatted(.iso8601))") }
            if let note { detail.append("cancellation reason \(note)") }
            reference = .transaction(id: transactionID, environment: purchase.environment)
        case .renewal:
            let purchase = try purchase()
            title = "Renewal info: auto-renew \(state ?? "unknown")"
            if let subject { detail.append("renews to \(subject)") }
            if flag == true { detail.append("in billing retry") }
            if let until { detail.append("grace period until \(until.formatted(.iso8601))") }
            if let subtype { detail.append("expiration intent \(subtype)") }
            reference = .subscription(originalTransactionID: purchase.originalTransactionID, environment: purchase.environment)
        case .notification:
            if let subject {
                title = "Notification " + (subtype.map { "\(subject)/\($0)" } ?? subject)
            } else {
                // The inbox also queues what the API could not ask Apple at once.
                title = origin == "transaction" ? "Queued transaction lookup" : "Queued receipt"
            }
            detail = [state ?? "unknown", Self.attempts(attempts)] + [environment, note].compactMap { $0 }
            reference = .notification(id: try id())
        case .statusChange:
            let purchase = try purchase()
            title = "Status \(subtype ?? "new") → \(subject ?? "unknown")"
            if let notification = try row.decode("related_id", as: Int64?.self) { detail.append("from notification \(notification)") }
            reference = .subscription(originalTransactionID: purchase.originalTransactionID, environment: purchase.environment)
        case .webhookEvent:
            title = "Webhook \(subject ?? "event")"
            detail = [origin, state, Self.attempts(attempts), note].compactMap { $0 }
            reference = .webhookEvent(id: try id())
        case .audit:
            title = "\(subject ?? "action") by \(origin ?? "someone")"
            if let note, !note.isEmpty { detail.append(note) }
            reference = .audit(id: try id())
        }
        self.init(
            kind: kind, at: at, title: title, detail: detail.isEmpty ? nil : detail.joined(separator: " · "), reference: reference,
            key: key)
    }

    private static func attempts(_ count: Int?) -> String {
        let count = count ?? 0
        return count == 1 ? "1 attempt" : "\(count) attempts"
    }
}
