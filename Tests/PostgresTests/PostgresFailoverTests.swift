import Logging
import Postgres
import Synchronization
import TestSupport
import Testing

/// What the client does when a failover moves the primary (the whole failover, with Patroni,
/// is `make test-ha`): connections that meet a read-only or shutdown error are not reused,
/// and every connection opened is reported with the server it reached.
@Suite("Postgres: connections that find themselves on a read-only server are replaced")
struct PostgresFailoverTests {
    @Test("a read-only transaction error (25006) retires the connection; the next statement gets a new one")
    func readOnlyErrorRetiresTheConnection() async throws {
        try await TestDatabase.withClient(maximumConnections: 1) { client, _ in
            let first = try await client.query("SELECT pg_backend_pid() AS pid")[0].decode("pid", as: Int.self)
            #expect(
                try await client.query("SELECT pg_backend_pid() AS pid")[0].decode("pid", as: Int.self) == first,
                "a healthy connection is reused")
            do {
                // What a write meets on a standby, or on a primary demoted under the session.
                try await client.withTransaction { session in
                    try session.execute("SET TRANSACTION READ ONLY")
                    try session.execute("CREATE TABLE failover_probe (id int)")
                }
                Issue.record("a write in a read-only transaction must fail")
            } catch let error as PostgresError {
                #expect(error.sqlState == "25006")
                #expect(error.isTransient)
            }
            let next = try await client.query("SELECT pg_backend_pid() AS pid")[0].decode("pid", as: Int.self)
            #expect(next != first, "the connection that met 25006 was dropped, not handed out again")
        }
    }

    @Test("every connection opened is reported with the server libpq reached")
    func connectionsReportTheirServer() async throws {
        try await TestDatabase.withMigrated { database in
            let servers = Mutex<[String?]>([])
            let client = PostgresClient(
                configuration: .init(
                    connectionString: database.url, maximumConnections: 1, connectTimeoutSeconds: TestEnvironment.connectTimeoutSeconds,
                    onConnect: { server in servers.withLock { $0.append(server) } }),
                logger: Logger(label: "test.postgres.failover"))
            let port = try await client.query("SELECT current_setting('port') AS port")[0].decode("port", as: String.self)
            try await client.shutdown()
            #expect(servers.withLock { $0 } == ["127.0.0.1:\(port)"])
        }
    }
}
