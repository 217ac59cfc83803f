import Foundation
import Postgres
import TestSupport
import Testing

/// Faults injected with a TCP proxy. Durations here are upper bounds that prove a wait
/// ended by a deadline rather than never; they are not benchmarks.
@Suite("Postgres: a silent or slow database yields transient errors within deadlines")
struct PostgresFaultTests {
    @Test("a blackholed connection fails within the statement deadline, and forward() recovers")
    func blackholedStatement() async throws {
        try await ProxiedDatabase.withClient { client, proxy in
            #expect(try await client.query("SELECT 1 AS one")[0].decode("one", as: Int.self) == 1)
            proxy.blackhole()
            let start = ContinuousClock.now
            do {
                try await client.query("SELECT 1")
                Issue.record("a statement through a blackhole must fail")
            } catch let error as PostgresError {
                #expect(error.code == .connectionLost)
                #expect(error.isTransient)
                #expect(error.message == "the database did not answer within 2 s")
            }
            #expect(
                ContinuousClock.now - start < .seconds(8), "bounded by the 2 s deadline (slack for a loaded machine), not by TCP's minutes")
            proxy.forward()
            // The abandoned connection is gone; a new one works.
            #expect(try await client.query("SELECT 2 AS two")[0].decode("two", as: Int.self) == 2)
        }
    }

    @Test("while every connection hangs, another caller gets the pool timeout")
    func poolTimeout() async throws {
        // The hung callers hold their slots for 10 s (connect timeout and deadline), far past
        // the 1 s lease timeout, however slowly a loaded machine runs the timers.
        try await ProxiedDatabase.withClient(
            maximumConnections: 2,
            adjust: { configuration in
                configuration.connectTimeoutSeconds = 10
                configuration.statementDeadline = .seconds(10)
            }
        ) { client, proxy in
            proxy.blackhole()
            let hung = (0..<2).map { _ in Task { try? await client.query("SELECT 1") } }
            try await Task.sleep(for: .milliseconds(300))
            let start = ContinuousClock.now
            do {
                try await client.query("SELECT 1")
                Issue.record("a caller must not get a connection while all hang")
            } catch let error as PostgresError {
                #expect(error.code == .poolTimeout)
                #expect(error.isTransient)
                #expect(error.message == "no database connection free within 1 s")
            }
            // Bounded, not a benchmark: 1 s lease plus slack for timers on two cores shared with the whole suite.
            // (A slot freed by the hung statements' 2 s deadline would have given connectionLost, not poolTimeout.)
            #expect(ContinuousClock.now - start < .seconds(6))
            // A per-call override.
            await #expect(throws: PostgresError.self) { try await client.query("SELECT 1", leaseTimeout: .milliseconds(200)) }
            for task in hung { _ = await task.value }
            proxy.forward()
            #expect(try await client.query("SELECT 3 AS n")[0].decode("n", as: Int.self) == 3)
        }
    }

    @Test("a cancelled waiter leaves the queue; the one behind it and later callers are served")
    func cancelledWaiter() async throws {
        // The holder keeps the only connection for 8 s (statement limits raised for it). Each
        // step waits for the pool to show the one before it, not for a fixed time: on two cores
        // shared with the whole suite, fixed sleeps once outlasted a 3 s holder, and the waiter
        // meant to be cancelled was served instead.
        try await ProxiedDatabase.withClient(
            maximumConnections: 1,
            adjust: { configuration in
                configuration.statementTimeout = .seconds(20)
                configuration.statementDeadline = .seconds(30)
            }
        ) { client, _ in
            let holder = Task { try await client.query("SELECT pg_sleep(8)") }
            try await Self.waitForPool(client) { $0.inUse == 1 }
            let cancelled = Task { try await client.query("SELECT 1", leaseTimeout: .seconds(30)) }
            try await Self.waitForPool(client) { $0.waiting == 1 }
            let behind = Task { try await client.query("SELECT 4 AS n", leaseTimeout: .seconds(30)) }
            try await Self.waitForPool(client) { $0.waiting == 2 }
            cancelled.cancel()
            let outcome = await cancelled.result
            #expect(throws: CancellationError.self) { try outcome.get() }
            _ = try await holder.value
            #expect(try await behind.value[0].decode("n", as: Int.self) == 4)
            // The only slot is free again: two callers in turn both get it.
            async let first = client.query("SELECT 5 AS n")
            async let second = client.query("SELECT 6 AS n")
            let values = try await [first[0].decode("n", as: Int.self), second[0].decode("n", as: Int.self)]
            #expect(values == [5, 6])
        }
    }

    /// Returns once the pool's statistics satisfy `condition`; fails after 10 s.
    private static func waitForPool(_ client: PostgresClient, _ condition: (PostgresPoolStatistics) -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition(await client.poolStatistics()) {
            guard ContinuousClock.now < deadline else {
                Issue.record("the pool never reached the state the test waits for: \(await client.poolStatistics())")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test("every session gets the configured server-side timeouts")
    func sessionSettings() async throws {
        try await ProxiedDatabase.withClient(adjust: { $0.lockTimeout = .milliseconds(250) }) { client, _ in
            let settings = try await client.withConnection { session in
                try ["statement_timeout", "lock_timeout", "idle_in_transaction_session_timeout", "TimeZone"].map { name in
                    let row = try session.query(PostgresQuery(sql: "SHOW \(name)"))[0]
                    return try row.text(row.columnNames[0])
                }
            }
            #expect(settings == ["1s", "250ms", "1min", "UTC"] as [String?])
        }
    }

    @Test("the server's statement_timeout cancels a slow statement as a transient error; the connection survives")
    func serverStatementTimeout() async throws {
        try await ProxiedDatabase.withClient(maximumConnections: 1) { client, _ in
            let pid = try await client.query("SELECT pg_backend_pid() AS pid")[0].decode("pid", as: Int32.self)
            do {
                try await client.query("SELECT pg_sleep(5)")
                Issue.record("statement_timeout must cancel the statement")
            } catch let error as PostgresError {
                #expect(error.code == .server)
                #expect(error.sqlState == "57014")
                #expect(error.isTransient)
            }
            #expect(try await client.query("SELECT pg_backend_pid() AS pid")[0].decode("pid", as: Int32.self) == pid)
        }
    }

    @Test("a script may outlast statement_timeout, which is restored afterwards")
    func scriptTimeoutIsRaised() async throws {
        try await ProxiedDatabase.withClient(maximumConnections: 1, adjust: { $0.scriptDeadline = .seconds(20) }) { client, _ in
            let after = try await client.withConnection { session in
                try session.runScript("SELECT pg_sleep(1.5); SELECT 1")
                return try session.query("SHOW statement_timeout")[0].decode("statement_timeout", as: String.self)
            }
            #expect(after == "1s")
        }
    }

    @Test("a script through a blackhole fails within its deadlines")
    func blackholedScript() async throws {
        try await ProxiedDatabase.withClient(maximumConnections: 1, adjust: { $0.scriptDeadline = .seconds(1) }) { client, proxy in
            try await client.query("SELECT 1")
            proxy.blackhole()
            let start = ContinuousClock.now
            await #expect(throws: PostgresError.self) {
                try await client.withConnection { session in try session.runScript("SELECT 1") }
            }
            #expect(ContinuousClock.now - start < .seconds(8), "bounded by the 2 s deadline (slack for a loaded machine)")
        }
    }

    @Test("connections reset by the network are replaced on the next lease")
    func resetConnectionsAreReplaced() async throws {
        try await ProxiedDatabase.withClient(maximumConnections: 1) { client, proxy in
            let firstPID = try await client.query("SELECT pg_backend_pid() AS pid")[0].decode("pid", as: Int32.self)
            proxy.resetAll()
            try await Task.sleep(for: .milliseconds(100))
            let secondPID = try await client.query("SELECT pg_backend_pid() AS pid")[0].decode("pid", as: Int32.self)
            #expect(secondPID != firstPID)
        }
    }
}
