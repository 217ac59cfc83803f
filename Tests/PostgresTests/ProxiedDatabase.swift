import Logging
import Postgres
import TestSupport

/// A migrated test database reached through a `TCPProxy`, with short limits so faults
/// surface within seconds: lease 1 s, statement_timeout 1 s, client deadline 2 s. The
/// connect timeout stays long: no test blackholes a connection before it is made, and the
/// first connection of a test started with the whole suite can take seconds.
enum ProxiedDatabase {
    /// Limits small enough for fault tests; each test may adjust them.
    static func limits(url: String, maximumConnections: Int) -> PostgresConfiguration {
        PostgresConfiguration(
            connectionString: url,
            maximumConnections: maximumConnections,
            connectTimeoutSeconds: TestEnvironment.connectTimeoutSeconds,
            applicationName: "subscriptiond-fault-tests",
            leaseTimeout: .seconds(1),
            statementTimeout: .seconds(1),
            statementDeadline: .seconds(2)
        )
    }

    /// Runs `body` with a client whose every connection goes through a fresh proxy.
    static func withClient<T: Sendable>(
        maximumConnections: Int = 2,
        adjust: (inout PostgresConfiguration) -> Void = { _ in },
        _ body: (PostgresClient, TCPProxy) async throws -> T
    ) async throws -> T {
        try await TestDatabase.withMigrated { database in
            let proxy = try TCPProxy(forwardingTo: database.url)
            var configuration = limits(url: proxy.url(through: database.url), maximumConnections: maximumConnections)
            adjust(&configuration)
            let client = PostgresClient(configuration: configuration, logger: Logger(label: "test.fault"))
            do {
                let result = try await body(client, proxy)
                try await client.shutdown()
                proxy.close()
                return result
            } catch {
                try? await client.shutdown()
                proxy.close()
                throw error
            }
        }
    }
}
