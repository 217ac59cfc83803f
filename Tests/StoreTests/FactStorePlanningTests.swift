import AppStore
import Foundation
import Postgres
import Store
import Subscriptions
import Testing
import TestSupport

/// A connection's cached generic plan is made from the statistics of its moment: prepared
/// while the tables were new, it scans them whole until autovacuum analyzes them. Applying
/// facts therefore plans its transaction's statements with their actual keys, and only there.
@Suite("FactStore plans its lookups with the keys at hand")
struct FactStorePlanningTests {
    @Test("inside the apply's transaction every statement gets a custom plan; the setting ends with the transaction")
    func customPlansInsideTheTransactionOnly() async throws {
        let now = Date()
        let millis = { (date: Date) in String(Int64(date.timeIntervalSince1970 * 1_000)) }
        let answer = """
            {"status": 0, "environment": "Production", "latest_receipt_info": [{
              "transaction_id": "7200000000000001", "original_transaction_id": "7200000000000001",
              "product_id": "com.example.pro.monthly",
              "purchase_date_ms": "\(millis(now.addingTimeInterval(-86_400)))",
              "expires_date_ms": "\(millis(now.addingTimeInterval(29 * 86_400)))"}]}
            """
        let facts = ReceiptFacts(
            verifyResponse: try VerifyReceiptResponse.decode(from: Array(answer.utf8)), bundleID: "com.example.app", observedAt: now)
        try await TestDatabase.withClient { client, _ in
            let setting = PostgresQuery("SELECT current_setting('plan_cache_mode') AS mode")
            let inside = try await client.withTransaction { session in
                try FactStore.apply(facts, receiptObservedAt: now, notificationID: nil, in: session)
                return try session.queryFirst(setting)?.decode("mode", as: String.self)
            }
            #expect(inside == "force_custom_plan")
            // Reads on the same connections keep their cached plans.
            for _ in 0..<3 {
                #expect(try await client.query(setting)[0].decode("mode", as: String.self) == "auto")
            }
            let stored = try await client.query("SELECT count(*) AS n FROM transactions")[0].decode("n", as: Int.self)
            #expect(stored == 1)
        }
    }
}
