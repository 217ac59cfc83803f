import AppStore
import Foundation
import Logging
import Postgres
import Store
import TestSupport
import Testing

/// A commit whose wait for the synchronous standby is cancelled is reported by PostgreSQL as a
/// success with a warning, though a failover would lose it (Deploy/ha/README.md). A cluster of
/// the test's own names a synchronous standby that never connects, so every commit waits; the
/// test cancels the wait with `pg_cancel_backend`, as an operator might: nothing may be taken
/// as committed on that answer.
@Suite("A commit the synchronous standby never confirmed is not taken as committed")
struct SynchronousCommitTests {
    @Test("a cancelled synchronous-replication wait fails the statement, and a redelivery of that entry is not answered duplicate")
    func cancelledWaitIsNotACommit() async throws {
        let cluster = try await ThrowawayCluster(prefix: "sync-commit-test")
        do {
            try await Self.exercise(cluster.url)
        } catch {
            await cluster.remove()
            throw error
        }
        await cluster.remove()
    }

    private static func exercise(_ url: String) async throws {
        #expect(try await CLI.run(["migrate"], databaseURL: url).status == 0)
        let logger = Logger(label: "test.synchronous-commit")
        let admin = PostgresClient(configuration: .init(connectionString: url, maximumConnections: 1), logger: logger)
        let client = PostgresClient(
            configuration: .init(connectionString: url, maximumConnections: 2), logger: logger)
        defer {
            Task {
                try? await client.shutdown()
                try? await admin.shutdown()
            }
        }
        try await admin.execute("ALTER SYSTEM SET synchronous_standby_names = 'standby_that_never_connects'")
        try await admin.query("SELECT pg_reload_conf()")

        do {
            try await cancellingTheWait(on: admin) { try await client.execute("CREATE TABLE unconfirmed (id int)") }
            Issue.record("a commit no standby confirmed was reported as done")
        } catch let error as PostgresError {
            #expect(error.code == .connectionLost)
            #expect(error.isTransient)
            #expect(error.message.contains("synchronous standby"))
        }
        let there = try await admin.query("SELECT count(*) AS n FROM pg_class WHERE relname = 'unconfirmed'")
        #expect(try there[0].decode("n", as: Int.self) == 1, "the commit is there locally: PostgreSQL did call it a success")

        let inbox = NotificationInbox(client: client)
        let entry = InboxEntry(
            source: .v1, dedupeKey: "v1:synchronous-commit-test", notificationType: "DID_RENEW", environment: .production,
            bundleID: "com.example.app", originalTransactionID: "1", body: #"{"k":"synchronous-commit-test"}"#)
        await #expect(throws: PostgresError.self, "an entry stored without the standby's confirmation is not accepted") {
            try await cancellingTheWait(on: admin) { try await inbox.insert(entry) }
        }
        // Apple's retry finds the entry stored on this server, but the standby still does not have it.
        await #expect(throws: PostgresError.self, "a redelivery of an unconfirmed entry is not answered duplicate") {
            try await cancellingTheWait(on: admin) { try await inbox.insert(entry) }
        }

        // With no standby required, the redelivery is the stored entry's duplicate.
        try await admin.execute("ALTER SYSTEM RESET synchronous_standby_names")
        try await admin.query("SELECT pg_reload_conf()")
        var answer: InboxInsertResult?
        #expect(
            try await Polling.until(seconds: 10) {
                answer = try? await inbox.insert(entry)
                return answer != nil
            })
        guard case .duplicate = answer else {
            Issue.record("expected the stored entry's duplicate, got \(String(describing: answer))")
            return
        }
    }

    /// Runs `body`, and cancels (`pg_cancel_backend`) every session that waits for the
    /// synchronous standby meanwhile, until `body` ends: at most 20 s.
    @discardableResult
    private static func cancellingTheWait<T: Sendable>(
        on admin: PostgresClient, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let work = Task { try await body() }
        let canceller = Task {
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline && !Task.isCancelled {
                _ = try? await admin.query("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE wait_event = 'SyncRep'")
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        defer { canceller.cancel() }
        return try await work.value
    }
}
