import Foundation
import Logging
import Postgres

/// Where the tests find their PostgreSQL server and the repository's files.
public enum TestEnvironment {
    /// Thrown when the tests were started without a database.
    public struct MissingDatabase: Error, CustomStringConvertible {
        public var description: String {
            "DATABASE_URL is not set: run the tests with `make test`, which starts a local PostgreSQL"
        }
    }

    /// `DATABASE_URL` pointed at the server's maintenance database, for CREATE/DROP DATABASE.
    public static func adminURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty else { throw MissingDatabase() }
        return Self.url(url, database: "postgres")
    }

    /// The same server URL with another database name.
    public static func url(_ url: String, database: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.path = "/" + database
        return components.string ?? url
    }

    /// The repository root (the folder holding Package.swift).
    public static func repositoryRoot(filePath: String = #filePath) -> URL {
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }

    /// The repository's `Schema/` folder.
    public static func schemaDirectory() -> URL {
        repositoryRoot().appendingPathComponent("Schema")
    }

    /// libpq's connect timeout for the tests' own connections. The suite starts dozens of
    /// tests at once on two cores, each creating a database and connecting, so a backend
    /// may take several seconds to start; production's 5 s is for a quiet server.
    public static let connectTimeoutSeconds = 30

    /// Runs one statement on a short-lived connection (CREATE/DROP DATABASE cannot run in a transaction).
    public static func runAdmin(_ sql: String, url: String) async throws {
        let client = PostgresClient(
            configuration: .init(
                connectionString: url, maximumConnections: 1, connectTimeoutSeconds: connectTimeoutSeconds,
                applicationName: "subscriptiond-tests-admin"
            ),
            logger: Logger(label: "test.admin")
        )
        do {
            try await client.withConnection { session in try session.runScript(sql) }
            try await client.shutdown()
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}
