import Foundation
import Logging
import Postgres
import Store

/// A throwaway, fully migrated database for one test, cloned from a template that is
/// migrated once per test process. Requires `DATABASE_URL` (set by `make test`).
public struct TestDatabase: Sendable {
    /// The connection URL of the test's own database.
    public let url: String

    /// Runs `body` with a fresh migrated database and drops it afterwards.
    public static func withMigrated<T: Sendable>(_ body: (TestDatabase) async throws -> T) async throws -> T {
        let name = "sd_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let template = try await TemplateDatabase.shared.name()
        let admin = try TestEnvironment.adminURL()
        try await TestEnvironment.runAdmin("CREATE DATABASE \(name) TEMPLATE \(template)", url: admin)
        let database = TestDatabase(url: TestEnvironment.url(admin, database: name))
        do {
            let result = try await body(database)
            try await TestEnvironment.runAdmin("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", url: admin)
            return result
        } catch {
            try? await TestEnvironment.runAdmin("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", url: admin)
            throw error
        }
    }

    /// Runs `body` with a client connected to a fresh migrated database.
    public static func withClient<T: Sendable>(
        maximumConnections: Int = 8,
        _ body: (PostgresClient, TestDatabase) async throws -> T
    ) async throws -> T {
        try await withMigrated { database in
            let client = database.makeClient(maximumConnections: maximumConnections)
            do {
                let result = try await body(client, database)
                try await client.shutdown()
                return result
            } catch {
                try? await client.shutdown()
                throw error
            }
        }
    }

    /// A new client for this database (shut it down when done). Tests share two cores with
    /// many others, so a connection or a pool lease may wait longer than production's
    /// defaults allow: when the whole suite starts at once, a backend can take seconds to fork.
    public func makeClient(maximumConnections: Int = 8) -> PostgresClient {
        PostgresClient(
            configuration: .init(
                connectionString: url, maximumConnections: maximumConnections,
                connectTimeoutSeconds: TestEnvironment.connectTimeoutSeconds, applicationName: "subscriptiond-tests",
                leaseTimeout: .seconds(60)
            ),
            logger: Logger(label: "test.postgres")
        )
    }
}

/// Creates the migrated template database once per test process.
actor TemplateDatabase {
    static let shared = TemplateDatabase()
    private var created: Task<String, any Error>?

    func name() async throws -> String {
        if let created { return try await created.value }
        let task = Task { try await Self.create() }
        created = task
        return try await task.value
    }

    private static func create() async throws -> String {
        let migrations = try Migration.load(from: TestEnvironment.schemaDirectory())
        let name = "sd_template_\(ProcessInfo.processInfo.processIdentifier)"
        let admin = try TestEnvironment.adminURL()
        try await TestEnvironment.runAdmin("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", url: admin)
        try await TestEnvironment.runAdmin("CREATE DATABASE \(name)", url: admin)
        let client = PostgresClient(
            configuration: .init(
                connectionString: TestEnvironment.url(admin, database: name), maximumConnections: 1,
                connectTimeoutSeconds: TestEnvironment.connectTimeoutSeconds
            ),
            logger: Logger(label: "test.template")
        )
        _ = try await MigrationRunner(client: client, migrations: migrations).migrate()
        try await client.shutdown()
        return name
    }
}
