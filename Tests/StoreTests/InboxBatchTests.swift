import AppStore
import Foundation
import Postgres
import Store
import TestSupport
import Testing

@Suite("Inbox batches: one statement stores many, duplicates answer with the stored id")
struct InboxBatchTests {
    private func entry(_ key: String, body: String? = nil) -> InboxEntry {
        InboxEntry(
            source: .v1, dedupeKey: key, notificationType: "DID_RENEW", environment: .production,
            bundleID: "com.example.app", originalTransactionID: "1", body: body ?? #"{"k":"\#(key)"}"#)
    }

    @Test("duplicates inside a batch and across batches get the stored id; each key is stored once")
    func duplicatesInsideAndAcross() async throws {
        try await TestDatabase.withClient { client, _ in
            let inbox = NotificationInbox(client: client)
            let first = try await inbox.insertBatch([entry("a"), entry("b"), entry("a"), entry("c"), entry("a")])
            guard case .accepted(let a) = first[0], case .accepted(let b) = first[1], case .accepted(let c) = first[3] else {
                Issue.record("not accepted: \(first)")
                return
            }
            #expect(first[2] == .duplicate(id: a))
            #expect(first[4] == .duplicate(id: a))
            #expect(Set([a, b, c]).count == 3)

            let second = try await inbox.insertBatch([entry("c"), entry("d"), entry("b"), entry("d")])
            #expect(second[0] == .duplicate(id: c))
            #expect(second[2] == .duplicate(id: b))
            guard case .accepted(let d) = second[1] else {
                Issue.record("d not accepted: \(second)")
                return
            }
            #expect(second[3] == .duplicate(id: d))
            // A single insert agrees with the batches.
            #expect(try await inbox.insert(entry("d")) == .duplicate(id: d))

            let rows = try await client.query("SELECT dedupe_key, count(*) AS n FROM notifications GROUP BY dedupe_key ORDER BY dedupe_key")
            #expect(try rows.map { try $0.decode("dedupe_key", as: String.self) } == ["a", "b", "c", "d"])
            #expect(try rows.allSatisfy { try $0.decode("n", as: Int.self) == 1 })
        }
    }

    @Test("every column is stored as a single insert stores it, NULLs included")
    func columnsMatchSingleInsert() async throws {
        try await TestDatabase.withClient { client, _ in
            let inbox = NotificationInbox(client: client)
            let full = InboxEntry(
                source: .receipt, dedupeKey: "full \"quoted\" \\ {x,y}", notificationType: nil, notificationSubtype: "NULL",
                environment: .sandbox, bundleID: "com.example.app", originalTransactionID: nil, appUserID: "user, \"42\"",
                body: #"{"text":"a \"quote\", a \\ and é 🎉"}"#)
            _ = try await inbox.insertBatch([full, entry("plain")])
            let row = try #require(
                try await client.query(
                    """
                    SELECT source, notification_type, notification_subtype, environment, original_transaction_id, app_user_id,
                           body->>'text' AS text, state
                    FROM notifications WHERE dedupe_key = \(full.dedupeKey)
                    """
                ).first)
            #expect(try row.decode("source", as: String.self) == "receipt")
            #expect(try row.decode("notification_type", as: String?.self) == nil)
            #expect(try row.decode("notification_subtype", as: String?.self) == "NULL")
            #expect(try row.decode("environment", as: String.self) == "Sandbox")
            #expect(try row.decode("original_transaction_id", as: String?.self) == nil)
            #expect(try row.decode("app_user_id", as: String?.self) == "user, \"42\"")
            #expect(try row.decode("text", as: String.self) == "a \"quote\", a \\ and é 🎉")
            #expect(try row.decode("state", as: String.self) == "pending")
        }
    }

    @Test("a batch with one entry the database refuses stores nothing and throws a data error")
    func badEntryFailsTheWholeStatement() async throws {
        try await TestDatabase.withClient { client, _ in
            let inbox = NotificationInbox(client: client)
            await #expect(throws: PostgresError.self) {
                try await inbox.insertBatch([entry("good"), entry("bad", body: "{not json")])
            }
            let count: Int = try await client.query("SELECT count(*) AS n FROM notifications")[0].decode("n")
            #expect(count == 0)
        }
    }
}
