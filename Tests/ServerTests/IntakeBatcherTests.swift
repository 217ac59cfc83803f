import AppStore
import Foundation
import Intake
import Logging
import Postgres
import Store
import Synchronization
import TestSupport
import Testing

@Suite("Intake batcher: group commit answers each caller after its batch committed")
struct IntakeBatcherTests {
    private func entry(_ key: String, body: String? = nil) -> InboxEntry {
        InboxEntry(
            source: .v1, dedupeKey: key, notificationType: "DID_RENEW", environment: .production,
            bundleID: "com.example.app", originalTransactionID: "1", body: body ?? #"{"k":"\#(key)"}"#)
    }

    private func count(_ client: PostgresClient) async throws -> Int {
        try await client.query("SELECT count(*) AS n FROM notifications")[0].decode("n")
    }

    private let logger = Logger(label: "test.intake-batcher")

    @Test("concurrent callers: each distinct entry stored once, every copy answered with that one id")
    func concurrentIntakeStoresEachOnce() async throws {
        try await TestDatabase.withClient { client, _ in
            let batcher = IntakeBatcher(
                inbox: NotificationInbox(client: client),
                configuration: .init(maximumBatchSize: 16, maximumBatchesInFlight: 2, queueTimeout: .seconds(120)), logger: logger)
            // 200 distinct keys, each sent three times at once.
            let keys = (0..<200).map { "key-\($0)" }
            let answers = try await withThrowingTaskGroup(of: (String, InboxInsertResult).self) { group in
                for key in keys {
                    for _ in 0..<3 { group.addTask { (key, try await batcher.insert(entry(key))) } }
                }
                return try await group.reduce(into: [(String, InboxInsertResult)]()) { $0.append($1) }
            }
            #expect(answers.count == 600)
            for key in keys {
                let mine = answers.filter { $0.0 == key }.map(\.1)
                let accepted = mine.compactMap { if case .accepted(let id) = $0 { id } else { nil } }
                let duplicates = mine.compactMap { if case .duplicate(let id) = $0 { id } else { nil } }
                #expect(accepted.count == 1, "\(key): \(mine)")
                #expect(Set(accepted + duplicates).count == 1, "\(key): \(mine)")
            }
            #expect(try await count(client) == 200)
        }
    }

    @Test("an entry the database refuses fails alone: its batch neighbours are stored and answered")
    func poisonedEntryDoesNotFailNeighbours() async throws {
        try await TestDatabase.withClient(maximumConnections: 1) { client, _ in
            let inbox = NotificationInbox(client: client)
            let batcher = IntakeBatcher(
                inbox: inbox, configuration: .init(maximumBatchesInFlight: 1, queueTimeout: .seconds(120)), logger: logger)
            // The only connection is busy and the only batch slot holds a first entry, so the
            // five below queue and are stored as one batch.
            let holder = Task { try await client.execute("SELECT pg_sleep(1)") }
            try await Task.sleep(for: .milliseconds(100))
            let first = Task { try await batcher.insert(entry("n0")) }
            try await Task.sleep(for: .milliseconds(100))
            let results = await withTaskGroup(of: (String, Result<InboxInsertResult, any Error>).self) { group in
                for key in ["n1", "n2", "poison", "n3", "n2"] {
                    group.addTask {
                        let body = key == "poison" ? "{not json" : nil
                        do { return (key, .success(try await batcher.insert(entry(key, body: body)))) } catch {
                            return (key, .failure(error))
                        }
                    }
                }
                return await group.reduce(into: [(String, Result<InboxInsertResult, any Error>)]()) { $0.append($1) }
            }
            _ = try await holder.value
            _ = try await first.value
            for (key, result) in results {
                switch (key, result) {
                case ("poison", .failure(let error)):
                    #expect((error as? PostgresError)?.sqlState?.hasPrefix("22") == true, "\(error)")
                case ("poison", .success(let answer)):
                    Issue.record("the poisoned entry was stored: \(answer)")
                case (_, .failure(let error)):
                    Issue.record("\(key) failed with its neighbour: \(error)")
                case (_, .success):
                    break
                }
            }
            let stored = try await client.query("SELECT dedupe_key FROM notifications ORDER BY dedupe_key")
            #expect(try stored.map { try $0.decode("dedupe_key", as: String.self) } == ["n0", "n1", "n2", "n3"])
        }
    }

    @Test("a full queue refuses at once with overloaded; the entries it took are stored")
    func overloadIsRefused() async throws {
        try await TestDatabase.withClient(maximumConnections: 1) { client, _ in
            let batcher = IntakeBatcher(
                inbox: NotificationInbox(client: client),
                configuration: .init(maximumBatchesInFlight: 1, maximumQueued: 2, queueTimeout: .seconds(60)), logger: logger)
            // The only connection is busy for a while, so the batch slot waits and the queue fills.
            let holder = Task { try await client.execute("SELECT pg_sleep(2)") }
            try await Task.sleep(for: .milliseconds(200))
            let results = await withTaskGroup(of: Result<InboxInsertResult, any Error>.self) { group in
                for index in 0..<10 {
                    group.addTask {
                        do { return .success(try await batcher.insert(entry("k\(index)"))) } catch { return .failure(error) }
                    }
                }
                return await group.reduce(into: [Result<InboxInsertResult, any Error>]()) { $0.append($1) }
            }
            _ = try await holder.value
            let refused = results.filter {
                if case .failure(let error) = $0 { (error as? IntakeBatcherError)?.code == .overloaded } else { false }
            }
            let stored = results.filter { if case .success = $0 { true } else { false } }
            #expect(refused.count >= 1)
            #expect(refused.count + stored.count == 10, "\(results)")
            #expect(try await count(client) == stored.count)
        }
    }

    @Test("a database that goes away mid-batch: every caller gets a transient error and nothing of the batch is stored")
    func connectionLostMidBatchStoresNothing() async throws {
        try await TestDatabase.withClient { client, database in
            let batcher = IntakeBatcher(
                inbox: NotificationInbox(client: client), configuration: .init(maximumBatchesInFlight: 1, queueTimeout: .seconds(120)),
                logger: logger)
            let admin = database.makeClient(maximumConnections: 1)
            let answered = Flag()
            let locked = Flag()
            // Hold a lock every batch's INSERT waits on, and end each backend waiting on it,
            // until every caller has its answer.
            let terminator = Task {
                try await admin.withTransaction { session -> Int in
                    try session.execute("LOCK TABLE notifications IN ACCESS EXCLUSIVE MODE")
                    locked.set()
                    var terminated = 0
                    for _ in 0..<600 where !answered.isSet {
                        // pg_stat_activity is read once per transaction unless the snapshot is cleared.
                        try session.execute("SELECT pg_stat_clear_snapshot()")
                        terminated += try session.query(
                            """
                            SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
                            WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'
                              AND query LIKE '%INSERT INTO notifications%'
                            """
                        ).count
                        try session.execute("SELECT pg_sleep(0.05)")
                    }
                    return terminated
                }
            }
            // The batches start only once the lock is held.
            let lockDeadline = ContinuousClock.now + .seconds(60)
            while !locked.isSet && ContinuousClock.now < lockDeadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(locked.isSet)
            let results = await withTaskGroup(of: Result<InboxInsertResult, any Error>.self) { group in
                for index in 0..<5 {
                    group.addTask {
                        do { return .success(try await batcher.insert(entry("lost-\(index)"))) } catch { return .failure(error) }
                    }
                }
                return await group.reduce(into: [Result<InboxInsertResult, any Error>]()) { $0.append($1) }
            }
            answered.set()
            #expect(try await terminator.value >= 1)
            try await admin.shutdown()
            for result in results {
                switch result {
                case .success(let answer): Issue.record("acknowledged although its batch's connection died: \(answer)")
                case .failure(let error): #expect((error as? PostgresError)?.isTransient == true, "\(error)")
                }
            }
            #expect(try await count(client) == 0)
        }
    }
}

/// A flag one task sets and a blocking loop on another thread reads.
private final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
