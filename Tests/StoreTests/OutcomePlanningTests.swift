import AppStore
import Foundation
import Postgres
import Store
import TestSupport
import Testing

/// A group's outcomes are written with one prepared statement joining the claims (`unnest`)
/// to the inbox. Its generic plan is made once per connection, perhaps while the inbox is
/// new; it must stay a probe of each claim's row in its own partition as the inbox grows, not
/// a scan of the inbox (`FactStorePlanningTests` holds the apply's lookups to the same).
@Suite("The group outcome write stays an index probe after the inbox grows under its cached plan")
struct OutcomePlanningTests {
    @Test("prepared on a new inbox; after 20,000 more notifications a group of 8 reads only its own rows")
    func outcomeWriteAfterTheInboxGrows() async throws {
        // One connection, so every group's write runs on the statement that connection prepared.
        try await TestDatabase.withClient(maximumConnections: 1) { client, _ in
            let inbox = NotificationInbox(client: client)
            var key = 0
            func group(_ size: Int) async throws -> [ProcessedAttempt] {
                let entries = (0..<size).map { _ in
                    key += 1
                    return InboxEntry(
                        source: .v1, dedupeKey: "outcome-\(key)", notificationType: "DID_RENEW", environment: .production,
                        bundleID: "com.example.app", originalTransactionID: "\(key)", body: #"{"k":\#(key)}"#)
                }
                _ = try await inbox.insertBatch(entries)
                return try await inbox.claimDue(limit: size, lease: .seconds(60)).map { ProcessedAttempt($0, note: nil) }
            }
            // On a new inbox: enough groups for the statement to settle on a generic plan.
            for _ in 1...8 {
                let attempts = try await group(8)
                try await client.withTransaction { session in try NotificationInbox.markProcessed(attempts, in: session) }
            }
            try await client.execute(
                """
                INSERT INTO notifications (source, dedupe_key, environment, bundle_id, original_transaction_id, body, state, processed_at)
                SELECT 'v1', 'grown-' || n, 'Production', 'com.example.app', n::text, '{}', 'processed', now()
                FROM generate_series(1, 20000) AS n
                """)
            let attempts = try await group(8)
            try #require(attempts.count == 8)
            let rowsRead = try await client.withTransaction { session in
                // The inbox rows this backend has read: its counts not yet reported to the
                // statistics (this transaction's, and perhaps earlier ones'), before and after.
                let read = {
                    try session.queryFirst(
                        """
                        SELECT coalesce(sum(seq_tup_read + coalesce(idx_tup_fetch, 0)), 0)::int8 AS n FROM pg_stat_xact_user_tables
                        WHERE relname LIKE 'notifications%'
                        """)?.decode("n", as: Int.self) ?? 0
                }
                let before = try read()
                try NotificationInbox.markProcessed(attempts, in: session)
                return try read() - before
            }
            // 8 probes when the plan probes each claim's row; tens of thousands when it scans.
            #expect(rowsRead < 100, "the outcome write of 8 notifications read \(rowsRead) rows")
            let processed = try await client.query("SELECT count(*) AS n FROM notifications WHERE state = 'processed'")
            #expect(try processed[0].decode("n", as: Int.self) == 20_000 + 9 * 8)
        }
    }
}
