import AppStore
import Foundation
import Postgres
import Store
import Subscriptions
import TestSupport
import Testing

/// Every verifyReceipt answer restates the whole receipt with its own request date. The store
/// writes such a restatement as the statement time alone (one statement per time, not an
/// upsert per transaction), and that time must still decide later refunds: an older answer
/// arriving late cannot refund what a newer one stated unrefunded.
@Suite("A restated receipt moves only the statement time, which still orders refunds")
struct RestatementTests {
    static let t0 = Date(timeIntervalSince1970: 1_780_000_000)
    static let day: TimeInterval = 86_400
    static let ids = ["7710000000000001", "7710000000000002"]

    /// verifyReceipt's answer stated `statedDay` days after t0: two monthly periods, the
    /// second refunded on day 40 when `refunded`.
    static func answer(statedDay: Double, refunded: Bool) throws -> ReceiptFacts {
        func ms(_ days: Double) -> Int64 { Int64((t0.timeIntervalSince1970 + days * day) * 1_000) }
        let entries = ids.enumerated().map { index, id in
            var fields = [
                "\"transaction_id\": \"\(id)\"", "\"original_transaction_id\": \"\(ids[0])\"",
                "\"product_id\": \"com.example.pro.monthly\"", "\"purchase_date_ms\": \"\(ms(Double(index) * 30))\"",
                "\"expires_date_ms\": \"\(ms(Double(index + 1) * 30))\"", "\"subscription_group_identifier\": \"20500000\"",
            ]
            if refunded, index == 1 { fields += ["\"cancellation_date_ms\": \"\(ms(40))\"", "\"cancellation_reason\": \"0\""] }
            return "{" + fields.joined(separator: ", ") + "}"
        }
        let body = """
            {"status": 0, "environment": "Production",
             "receipt": {"bundle_id": "com.example.app", "request_date_ms": "\(ms(statedDay))"},
             "latest_receipt_info": [\(entries.joined(separator: ","))],
             "pending_renewal_info": [{"original_transaction_id": "\(ids[0])", "product_id": "com.example.pro.monthly",
                "auto_renew_product_id": "com.example.pro.monthly", "auto_renew_status": "1"}]}
            """
        return ReceiptFacts(
            verifyResponse: try VerifyReceiptResponse.decode(from: Array(body.utf8)), bundleID: "com.example.app",
            observedAt: t0.addingTimeInterval(100 * day))
    }

    @Test func restatementOrdersLaterRefunds() async throws {
        try await TestDatabase.withClient { client, _ in
            func apply(statedDay: Double, refunded: Bool) async throws {
                let facts = try Self.answer(statedDay: statedDay, refunded: refunded)
                try await client.withTransaction { session in
                    try FactStore.applyForTests(
                        facts, receiptObservedAt: Self.t0.addingTimeInterval(100 * Self.day), notificationID: nil, in: session)
                }
            }
            func rows() async throws -> [String] {
                try await client.query(
                    """
                    SELECT transaction_id, extract(epoch FROM stated_at)::bigint AS stated, cancellation_date IS NOT NULL AS refunded
                    FROM transactions ORDER BY transaction_id
                    """
                ).map { row in
                    let stated = try row.decode("stated", as: Int64.self) - Int64(Self.t0.timeIntervalSince1970)
                    let id = try row.decode("transaction_id", as: String.self)
                    return "\(id) day \(stated / 86_400) refunded \(try row.decode("refunded", as: Bool.self))"
                }
            }
            try await apply(statedDay: 50, refunded: false)
            #expect(try await rows() == ["7710000000000001 day 50 refunded false", "7710000000000002 day 50 refunded false"])
            // The same answer again: nothing to write.
            let versions = try await client.query("SELECT xmin::text AS v FROM transactions ORDER BY transaction_id").map {
                try $0.decode("v", as: String.self)
            }
            try await apply(statedDay: 50, refunded: false)
            let unchanged = try await client.query("SELECT xmin::text AS v FROM transactions ORDER BY transaction_id").map {
                try $0.decode("v", as: String.self)
            }
            #expect(unchanged == versions)
            // Restated later: only the statement time moves, for both rows.
            try await apply(statedDay: 60, refunded: false)
            #expect(try await rows() == ["7710000000000001 day 60 refunded false", "7710000000000002 day 60 refunded false"])
            // An answer stated before that one, arriving late, cannot refund.
            try await apply(statedDay: 55, refunded: true)
            #expect(try await rows() == ["7710000000000001 day 60 refunded false", "7710000000000002 day 60 refunded false"])
            // A newer one does.
            try await apply(statedDay: 70, refunded: true)
            #expect(try await rows() == ["7710000000000001 day 70 refunded false", "7710000000000002 day 70 refunded true"])
        }
    }
}
