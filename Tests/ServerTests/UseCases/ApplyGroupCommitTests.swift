import AppStore
import Foundation
import Postgres
import Store
import Subscriptions
import Testing

@testable import UseCases

/// The worker's group commit writes the applies of attempts that finish together in one
/// transaction; one that cannot be written (a claim gone stale) rolls the whole transaction
/// back, so the group commit can write each again alone (`GroupCommitTests`).
@Suite("Use case: several notifications' applies in one transaction")
struct ApplyGroupCommitTests {
    @Test("two claimed notifications are applied and marked processed by one transaction")
    func together() async throws {
        try await UseCaseHarness.with { harness in
            let jobs = try await Self.claimedJobs(["4400000000000001", "4400000000000002"], harness: harness)
            try await NotificationProcessor.write(jobs, database: harness.database, apps: harness.apps)
            let states = try await harness.database.query("SELECT state FROM notifications ORDER BY id").map {
                try $0.decode("state", as: String.self)
            }
            #expect(states == ["processed", "processed"])
            #expect(try await harness.count("SELECT count(*) AS n FROM subscriptions WHERE status = 'active'") == 2)
            // Rows written by one transaction share its id.
            #expect(
                try await harness.count(
                    """
                    SELECT count(DISTINCT x) AS n FROM (
                        SELECT xmin::text AS x FROM subscriptions UNION ALL SELECT xmin::text FROM notifications) AS rows
                    """) == 1)
        }
    }

    @Test("a stale claim among them writes nothing of any of them")
    func staleClaimRollsBackAll() async throws {
        try await UseCaseHarness.with { harness in
            let jobs = try await Self.claimedJobs(["4400000000000003", "4400000000000004"], harness: harness)
            // Another worker claimed the second one after its lease ran out.
            try await harness.database.execute("UPDATE notifications SET attempts = attempts + 1 WHERE id = \(jobs[1].notification.id)")
            await #expect(throws: StaleClaimError.self) {
                try await NotificationProcessor.write(jobs, database: harness.database, apps: harness.apps)
            }
            #expect(try await harness.count("SELECT count(*) AS n FROM notifications WHERE state = 'processed'") == 0)
            #expect(try await harness.count("SELECT count(*) AS n FROM transactions") == 0)
            #expect(try await harness.count("SELECT count(*) AS n FROM subscriptions") == 0)
            // Alone, the first is written as it would have been.
            try await NotificationProcessor.write([jobs[0]], database: harness.database, apps: harness.apps)
            #expect(try await harness.count("SELECT count(*) AS n FROM notifications WHERE state = 'processed'") == 1)
        }
    }

    @Test("applies of one subscription in one transaction store what they store one transaction each")
    func sameSubscriptionTogether() async throws {
        var snapshots: [[String]] = []
        // Not a whole microsecond: dates written in this transaction compare as their rows would.
        let now = Date(timeIntervalSince1970: 1_795_000_000.123_456_7)
        for together in [true, false] {
            try await UseCaseHarness.with { harness in
                let jobs = try await Self.claimedJobs(
                    ["4400000000000005", "4400000000000005"], harness: harness, periods: [1, 2], now: now)
                if together {
                    try await NotificationProcessor.write(jobs, database: harness.database, apps: harness.apps)
                } else {
                    for job in jobs { try await NotificationProcessor.write([job], database: harness.database, apps: harness.apps) }
                }
                snapshots.append(try await Self.facts(in: harness))
            }
        }
        #expect(snapshots[0] == snapshots[1])
        // Both periods, the second the subscription's latest.
        #expect(snapshots[0].contains { $0.hasPrefix("transactions 4400000000000005-2 ") })
        #expect(snapshots[0].contains { $0.hasPrefix("subscriptions 4400000000000005 active 4400000000000005-2 ") })
    }

    /// The stored transactions and subscriptions, a line per row, without the times of writing.
    private static func facts(in harness: UseCaseHarness) async throws -> [String] {
        let transactions = try await harness.database.query(
            "SELECT transaction_id, original_transaction_id, expires_date::text AS e FROM transactions ORDER BY transaction_id"
        ).map { row in
            let id: String = try row.decode("transaction_id")
            let original: String = try row.decode("original_transaction_id")
            return "transactions \(id) \(original) \(try row.decode("e", as: String?.self) ?? "-")"
        }
        let subscriptions = try await harness.database.query(
            "SELECT original_transaction_id, status, latest_transaction_id, expires_at::text AS e FROM subscriptions ORDER BY 1"
        ).map { row in
            let original: String = try row.decode("original_transaction_id")
            let status: String = try row.decode("status")
            let latest = try row.decode("latest_transaction_id", as: String?.self) ?? "-"
            return "subscriptions \(original) \(status) \(latest) \(try row.decode("e", as: String?.self) ?? "-")"
        }
        return transactions + subscriptions
    }

    /// One stored and claimed notification per entry of `ids`, each with a plan of monthly
    /// periods of that original transaction (`periods`, one each by default; a job's last
    /// period ends 29 days ahead, each earlier one a month before the next).
    private static func claimedJobs(
        _ ids: [String], harness: UseCaseHarness, periods: [Int]? = nil, now: Date = Date()
    ) async throws -> [ApplyJob] {
        let inbox = NotificationInbox(client: harness.database)
        for (index, id) in ids.enumerated() {
            _ = try await inbox.insert(
                InboxEntry(
                    source: .v1, dedupeKey: "group-commit-\(id)-\(index)", notificationType: "DID_RENEW", environment: .production,
                    bundleID: UseCaseHarness.bundleID, originalTransactionID: id, body: #"{"id":"\#(id)","n":\#(index)}"#))
        }
        let claimed = try await inbox.claimDue(limit: ids.count, lease: .seconds(60))
        #expect(claimed.count == ids.count)
        // Inserted in the order of `ids`, so claimed rows sorted by id follow it.
        return zip(claimed.sorted { $0.id < $1.id }, ids).enumerated().map { index, claimedID in
            let (notification, id) = claimedID
            let count = periods?[index] ?? 1
            let transactions = (1...count).map { period in
                let end = now.addingTimeInterval(Double(29 - 30 * (count - period)) * 86_400)
                return TransactionFact(
                    transactionID: periods == nil ? id : "\(id)-\(period)", originalTransactionID: id,
                    productID: "com.example.pro.monthly", bundleID: UseCaseHarness.bundleID, environment: .production,
                    purchaseDate: end.addingTimeInterval(-30 * 86_400), expiresDate: end)
            }
            let facts = ReceiptFacts(
                environment: .production, bundleID: UseCaseHarness.bundleID, transactions: transactions, renewals: [], latestReceipt: nil)
            return ApplyJob(
                plan: AttemptPlan(batches: [FactBatch(facts: facts, observedAt: now)]), notification: notification, appUserID: nil)
        }
    }
}
