import AppStore
import Foundation
import Postgres
import Store
import TestSupport
import Testing

@Suite("Retention: receipts older than the cut-off are removed, nothing else")
struct RetentionTests {
    /// Stores a notification in `state`, processed `daysAgo` days ago, with `body`; returns its id.
    private func store(
        _ client: PostgresClient, key: String, source: String = "v1", state: String = "processed",
        daysAgo: Double?, body: String
    ) async throws -> Int64 {
        let processedAt = daysAgo.map { Date().addingTimeInterval(-$0 * 86_400) }
        return try #require(
            try await client.query(
                """
                INSERT INTO notifications (source, dedupe_key, notification_type, environment, bundle_id, body, state, processed_at)
                VALUES (\(source), \(key), 'DID_RENEW', 'Production', 'com.example.app', \(body)::jsonb, \(state), \(processedAt))
                RETURNING id
                """
            ).first
        ).decode("id")
    }

    private func body(_ client: PostgresClient, _ id: Int64) async throws -> String {
        try #require(try await client.query("SELECT body::text AS b FROM notifications WHERE id = \(id)").first).decode("b")
    }

    /// Equal as JSON values (jsonb reorders keys and spacing).
    private func same(_ stored: String, _ expected: String) throws -> Bool {
        let lhs = try JSONSerialization.jsonObject(with: Data(stored.utf8)) as? NSDictionary
        let rhs = try JSONSerialization.jsonObject(with: Data(expected.utf8)) as? NSDictionary
        return lhs != nil && lhs == rhs
    }

    static let v1Body =
        #"{"auto_renew_status": "true", "latest_receipt": "AAAA", "latest_expired_receipt": "BBBB", "notification_type": "DID_RENEW", "unified_receipt": {"status": 0, "latest_receipt": "CCCC", "latest_receipt_info": [{"transaction_id": "1"}]}}"#
    static let v1Stripped =
        #"{"auto_renew_status": "true", "notification_type": "DID_RENEW", "unified_receipt": {"status": 0, "latest_receipt_info": [{"transaction_id": "1"}]}}"#
    static let signedBody = #"{"signedPayload": "eyJ.x.y"}"#

    @Test("old processed v1 bodies and queued receipts lose exactly their receipts; recent, unprocessed and signed ones are untouched")
    func stripsExactlyTheOldReceipts() async throws {
        try await TestDatabase.withClient { client, _ in
            let old = try await store(client, key: "old", daysAgo: 91, body: Self.v1Body)
            let recent = try await store(client, key: "recent", daysAgo: 89, body: Self.v1Body)
            let deadOld = try await store(client, key: "dead", state: "dead", daysAgo: nil, body: Self.v1Body)
            let queued = try await store(
                client, key: "queued", source: "receipt", daysAgo: 100, body: #"{"app_user_id": "u", "receipt_data": "DDDD"}"#)
            let signed = try await store(client, key: "signed", source: "v2", daysAgo: 200, body: Self.signedBody)

            let run = try await ReceiptRetention(client: client).run(cutoff: Date().addingTimeInterval(-90 * 86_400), dropSigned: false)
            #expect(run.receiptsRemoved == 2)
            #expect(run.signedRemoved == 0)
            #expect(try await same(body(client, old), Self.v1Stripped))
            #expect(try await same(body(client, queued), #"{"app_user_id": "u"}"#))
            #expect(try await same(body(client, recent), Self.v1Body))
            #expect(try await same(body(client, deadOld), Self.v1Body))
            #expect(try await same(body(client, signed), Self.signedBody))
            let marked = try await client.query("SELECT id FROM notifications WHERE receipt_removed_at IS NOT NULL ORDER BY id")
            #expect(try marked.map { try $0.decode("id", as: Int64.self) } == [old, queued])

            // Idempotent: a second run finds nothing; then signed payloads only when asked.
            #expect(
                try await ReceiptRetention(client: client).run(cutoff: Date().addingTimeInterval(-90 * 86_400), dropSigned: false)
                    .receiptsRemoved == 0)
            let dropping = try await ReceiptRetention(client: client).run(cutoff: Date().addingTimeInterval(-90 * 86_400), dropSigned: true)
            #expect(dropping.signedRemoved == 1)
            #expect(dropping.receiptsRemoved == 0)
            #expect(try await same(body(client, signed), "{}"))
            let last = try #require(try await StatsQueries(client: client).lastRetention())
            #expect(last.signedRemoved == 1 && last.dropSigned)
        }
    }

    @Test("batches: more rows than one batch are all stripped")
    func batches() async throws {
        try await TestDatabase.withClient { client, _ in
            for index in 0..<7 { _ = try await store(client, key: "k\(index)", daysAgo: 120, body: Self.v1Body) }
            let run = try await ReceiptRetention(client: client).run(
                cutoff: Date().addingTimeInterval(-90 * 86_400), dropSigned: false, batchSize: 3)
            #expect(run.receiptsRemoved == 7)
            let left = try await client.query("SELECT count(*) AS n FROM notifications WHERE body ? 'latest_receipt'")
            #expect(try left[0].decode("n", as: Int.self) == 0)
        }
    }

    @Test("retention answers given before the cut-off are deleted, in batches; later ones stay")
    func deletesOldRetentionAnswers() async throws {
        try await TestDatabase.withClient { client, _ in
            let store = RetentionAnswerStore(client: client)
            func record(_ id: String, daysAgo: Double) -> RetentionAnswerRecord {
                RetentionAnswerRecord(
                    requestIdentifier: id, answeredAt: Date().addingTimeInterval(-daysAgo * 86_400), environment: .production,
                    bundleID: "com.example.app", originalTransactionID: "7000000000000001", productID: "com.example.pro.monthly",
                    userLocale: "en-US", answer: .appleDefault, reason: .noMatch, ruleIndex: nil, messageIdentifier: nil,
                    offeredProductID: nil, offerID: nil)
            }
            try await store.record((0..<5).map { record("old-\($0)", daysAgo: 100) } + [record("recent", daysAgo: 1)])
            try await ReceiptRetention(client: client).run(
                cutoff: Date().addingTimeInterval(-90 * 86_400), dropSigned: false, batchSize: 2)
            let left = try await client.query("SELECT request_identifier FROM retention_answers ORDER BY 1").map {
                try $0.decode("request_identifier", as: String.self)
            }
            #expect(left == ["recent"])
        }
    }
}
