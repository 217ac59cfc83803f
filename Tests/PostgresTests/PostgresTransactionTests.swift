import Foundation
import Logging
import Postgres
import TestSupport
import Testing

@Suite("Postgres: transactions, errors, broken connections, concurrency")
struct PostgresTransactionTests {
    struct Abort: Error {}

    @Test("a transaction that throws leaves nothing behind")
    func rollbackOnThrow() async throws {
        try await TestDatabase.withClient { client, _ in
            await #expect(throws: Abort.self) {
                try await client.withTransaction { session in
                    try session.execute("INSERT INTO products (product_id, bundle_id, type) VALUES (\("p1"), \("b"), \("consumable"))")
                    let inside = try session.query("SELECT count(*) AS n FROM products")
                    #expect(try inside[0].decode("n", as: Int.self) == 1)
                    throw Abort()
                }
            }
            let after = try await client.query("SELECT count(*) AS n FROM products")
            #expect(try after[0].decode("n", as: Int.self) == 0)
        }
    }

    @Test("a committed transaction is visible, and a server error rolls back and carries SQLSTATE")
    func commitAndServerError() async throws {
        try await TestDatabase.withClient { client, _ in
            try await client.withTransaction { session in
                try session.execute("INSERT INTO products (product_id, bundle_id, type) VALUES (\("p1"), \("b"), \("consumable"))")
            }
            do {
                try await client.withTransaction { session in
                    try session.execute("INSERT INTO products (product_id, bundle_id, type) VALUES (\("p2"), \("b"), \("consumable"))")
                    try session.execute("INSERT INTO products (product_id, bundle_id, type) VALUES (\("p1"), \("b"), \("consumable"))")
                }
                Issue.record("a duplicate key must throw")
            } catch let error as PostgresError {
                #expect(error.code == .server)
                #expect(error.isUniqueViolation)
                #expect(error.sqlState == "23505")
                // The safe description never quotes the row's values; the detail does.
                #expect(!error.description.contains("(p1)"))
                #expect(error.debugDescription.contains("p1"))
            }
            let rows = try await client.query("SELECT product_id FROM products ORDER BY product_id")
            #expect(try rows.map { try $0.decode("product_id", as: String.self) } == ["p1"])
        }
    }

    @Test("a connection killed by the server is replaced on the next lease")
    func terminatedBackendIsReplaced() async throws {
        try await TestDatabase.withClient(maximumConnections: 1) { client, database in
            let firstPID = try await client.query("SELECT pg_backend_pid() AS pid")[0].decode("pid", as: Int32.self)
            let killer = database.makeClient(maximumConnections: 1)
            let killed = try await killer.query("SELECT pg_terminate_backend(\(firstPID)) AS ok")[0].decode("ok", as: Bool.self)
            try await killer.shutdown()
            #expect(killed)
            // Give the server a moment to close the socket; the next lease must notice and reconnect.
            try await Task.sleep(for: .milliseconds(200))
            let secondPID = try await client.query("SELECT pg_backend_pid() AS pid")[0].decode("pid", as: Int32.self)
            #expect(secondPID != firstPID)
        }
    }

    @Test("a connection that breaks mid-lease is reported as lost and not reused")
    func brokenDuringLease() async throws {
        try await TestDatabase.withClient(maximumConnections: 1) { client, _ in
            do {
                // The backend kills itself while running our statement.
                try await client.query("SELECT pg_terminate_backend(pg_backend_pid())")
                Issue.record("a statement on a killed backend must throw")
            } catch let error as PostgresError {
                #expect(error.code == .connectionLost || error.isTransient)
            }
            let rows = try await client.query("SELECT 1 AS one")
            #expect(try rows[0].decode("one", as: Int.self) == 1)
        }
    }

    @Test("an unreachable server is its own error case")
    func unreachableServer() async throws {
        // Port 1 on loopback: nothing listens there.
        let client = PostgresClient(
            configuration: .init(connectionString: "postgresql://nobody@127.0.0.1:1/none", maximumConnections: 1, connectTimeoutSeconds: 2),
            logger: .init(label: "test")
        )
        do {
            try await client.query("SELECT 1")
            Issue.record("connecting to a closed port must throw")
        } catch let error as PostgresError {
            #expect(error.code == .unreachable)
            #expect(error.isTransient)
        }
        try await client.shutdown()
    }

    @Test(
        "a malformed connection string is a configuration error, not an unreachable server",
        arguments: [
            "postgresql://[::1", "postgresql://%zz", "host=127.0.0.1 port=abc", "postgresql://u@127.0.0.1/db?sslmode=sometimes",
        ])
    func malformedURL(_ connectionString: String) async throws {
        let client = PostgresClient(configuration: .init(connectionString: connectionString), logger: .init(label: "test"))
        do {
            try await client.query("SELECT 1")
            Issue.record("a malformed connection string must throw")
        } catch let error as PostgresError {
            #expect(error.code == .invalidConfiguration, "\(error)")
            #expect(!error.isTransient)
        }
        try await client.shutdown()
    }

    @Test("50 tasks share a pool of 5 connections safely")
    func concurrentUse() async throws {
        try await TestDatabase.withClient(maximumConnections: 5) { client, _ in
            try await client.execute("CREATE TABLE counter (id int PRIMARY KEY, n bigint NOT NULL)")
            try await client.execute("INSERT INTO counter VALUES (1, 0)")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<50 {
                    group.addTask {
                        for step in 0..<10 {
                            try await client.withTransaction { session in
                                try session.execute("UPDATE counter SET n = n + 1 WHERE id = 1")
                                let echo = try session.query("SELECT \(task * 100 + step)::int AS v")
                                #expect(try echo[0].decode("v", as: Int.self) == task * 100 + step)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let total = try await client.query("SELECT n FROM counter")[0].decode("n", as: Int64.self)
            #expect(total == 500)
            let connections = try await client.query(
                "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'subscriptiond-tests' AND datname = current_database()"
            )
            #expect(try connections[0].decode("n", as: Int.self) <= 5)
        }
    }

    @Test("a shut-down client refuses new work")
    func shutdownRefuses() async throws {
        try await TestDatabase.withMigrated { database in
            let client = database.makeClient()
            try await client.query("SELECT 1")
            try await client.shutdown()
            await #expect(throws: (any Error).self) { try await client.query("SELECT 1") }
        }
    }
}
