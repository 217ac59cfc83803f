import AppStore
import Foundation
import Postgres
import Store
import Subscriptions
import TestSupport
import Testing

/// A connection prepares its statements once, and PostgreSQL keeps a generic plan made from
/// the statistics of that moment. Prepared while the tables were new, a lookup by a list of
/// keys (`environment = $1 AND … = ANY($2)`) plans `environment` as its only index
/// condition, or a sequential scan, and keeps reading the whole environment until autovacuum
/// analyzes the table, while a backlog grows it by thousands of rows a minute. The apply's
/// lookups by key lists are therefore planned on every call, with their actual keys.
@Suite("FactStore: its lookups stay index lookups after the tables grow under cached plans")
struct FactStorePlanningTests {
    @Test("statements prepared on empty tables; after 20,000 more rows in each table an apply still reads only its own")
    func lookupsAfterTheTablesGrow() async throws {
        let now = Date()
        // One connection, so every apply runs on the statements that connection prepared.
        try await TestDatabase.withClient(maximumConnections: 1) { client, _ in
            // On empty tables: enough applies for each prepared statement to settle on a generic plan.
            for customer in 1...8 {
                let facts = try Self.facts(customer: customer, now: now)
                try await client.withTransaction { session in
                    try FactStore.applyForTests(facts, receiptObservedAt: now, notificationID: nil, in: session)
                }
            }
            try await client.execute(
                """
                INSERT INTO transactions (environment, transaction_id, original_transaction_id, bundle_id, product_id, purchase_date)
                SELECT 'Production', (7300000000000000 + n)::text, (7300000000000000 + n / 3)::text, 'com.example.app',
                       'com.example.pro.monthly', now() - interval '1 day'
                FROM generate_series(1, 20000) AS n
                """)
            try await client.execute(
                """
                INSERT INTO renewal_info (environment, original_transaction_id, bundle_id, observed_at)
                SELECT 'Production', (7300000000000000 + n)::text, 'com.example.app', now() FROM generate_series(1, 20000) AS n
                """)
            try await client.execute(
                """
                INSERT INTO subscriptions (environment, original_transaction_id, bundle_id, product_id, status, latest_transaction_id)
                SELECT 'Production', (7300000000000000 + n)::text, 'com.example.app', 'com.example.pro.monthly', 'active',
                       (7300000000000000 + n)::text
                FROM generate_series(1, 20000) AS n
                """)
            try await client.execute(
                """
                INSERT INTO subscribers (app_user_id, environment, original_transaction_id, bundle_id)
                SELECT 'user-' || n, 'Production', (7300000000000000 + n)::text, 'com.example.app' FROM generate_series(1, 20000) AS n
                """)
            let facts = try Self.facts(customer: 9, now: now)
            let rowsRead = try await client.withTransaction { session in
                try FactStore.applyForTests(facts, receiptObservedAt: now, notificationID: nil, in: session)
                // This transaction's own reads of the table, not yet reported to the statistics.
                return try session.queryFirst(
                    """
                    SELECT sum(seq_tup_read + coalesce(idx_tup_fetch, 0))::int8 AS n FROM pg_stat_xact_user_tables
                    WHERE relname IN ('transactions', 'renewal_info', 'subscriptions', 'subscribers')
                    """)?.decode("n", as: Int.self)
            }
            // A few hundred with every lookup planned for its keys (the apply's index probes);
            // tens of thousands when a lookup runs the generic plan made on the empty table,
            // which reads the whole environment.
            #expect(try #require(rowsRead) < 1_000, "the apply read \(rowsRead ?? 0) rows for a customer with 2 transactions")
            let stored = try await client.query("SELECT count(*) AS n FROM transactions")[0].decode("n", as: Int.self)
            #expect(stored == 20_000 + 9 * 2)
        }
    }

    /// A verifyReceipt answer for one customer with two monthly transactions.
    private static func facts(customer: Int, now: Date) throws -> ReceiptFacts {
        let millis = { (date: Date) in String(Int64(date.timeIntervalSince1970 * 1_000)) }
        let original = String(7_200_000_000_000_000 + customer * 10)
        let transactions = (0..<2).map { period in
            """
            {"transaction_id": "\(7_200_000_000_000_000 + customer * 10 + period)", "original_transaction_id": "\(original)",
             "product_id": "com.example.pro.monthly",
             "purchase_date_ms": "\(millis(now.addingTimeInterval(Double(period - 2) * 30 * 86_400)))",
             "expires_date_ms": "\(millis(now.addingTimeInterval(Double(period - 1) * 30 * 86_400 + 86_400)))"}
            """
        }
        let answer = """
            {"status": 0, "environment": "Production", "latest_receipt_info": [\(transactions.joined(separator: ","))]}
            """
        return ReceiptFacts(
            verifyResponse: try VerifyReceiptResponse.decode(from: Array(answer.utf8)), bundleID: "com.example.app", observedAt: now)
    }
}
