import AppStore
import Foundation
import Postgres
import Store
import SubscriptiondCore
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

    /// One stored and claimed notification per id, each with a plan of one active monthly period.
    private static func claimedJobs(_ ids: [String], harness: UseCaseHarness) async throws -> [ApplyJob] {
        let inbox = NotificationInbox(client: harness.database)
        for id in ids {
            _ = try await inbox.insert(
                InboxEntry(
                    source: .v1, dedupeKey: "group-commit-\(id)", notificationType: "DID_RENEW", environment: .production,
                    bundleID: UseCaseHarness.bundleID, originalTransactionID: id, body: #"{"id":"\#(id)"}"#))
        }
        let claimed = try await inbox.claimDue(limit: ids.count, lease: .seconds(60))
        #expect(claimed.count == ids.count)
        let now = Date()
        // Inserted in the order of `ids`, so claimed rows sorted by id follow it.
        return zip(claimed.sorted { $0.id < $1.id }, ids).map { notification, id in
            let facts = ReceiptFacts(
                environment: .production, bundleID: UseCaseHarness.bundleID,
                transactions: [
                    TransactionFact(
                        transactionID: id, originalTransactionID: id, productID: "com.example.pro.monthly",
                        bundleID: UseCaseHarness.bundleID,
                        environment: .production, purchaseDate: now.addingTimeInterval(-86_400),
                        expiresDate: now.addingTimeInterval(29 * 86_400))
                ],
                renewals: [], latestReceipt: nil)
            return ApplyJob(
                plan: ApplyPlan(batches: [FactBatch(facts: facts, observedAt: now)]), notification: notification, appUserID: nil)
        }
    }
}
