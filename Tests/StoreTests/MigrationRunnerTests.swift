import Foundation
import Postgres
import Store
import TestSupport
import Testing

@Suite("Migrations: each file once, in order, checksummed")
struct MigrationRunnerTests {
    /// A temporary Schema directory holding the given files.
    private func schema(_ files: [String: String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, sql) in files {
            try Data(sql.utf8).write(to: directory.appendingPathComponent(name))
        }
        return directory
    }

    /// An empty (unmigrated) database: the template's migrations are dropped by using a plain one.
    private func withEmptyDatabase(_ body: (PostgresClient) async throws -> Void) async throws {
        try await TestDatabase.withClient { client, _ in
            try await client.withConnection { session in
                try session.runScript("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
            }
            try await body(client)
        }
    }

    @Test("the repository's migrations apply once, then report applied")
    func repositoryMigrations() async throws {
        try await withEmptyDatabase { client in
            let migrations = try Migration.load(from: TestEnvironment.schemaDirectory())
            #expect(migrations.first?.name == "0001_initial")
            let runner = MigrationRunner(client: client, migrations: migrations)
            await #expect(throws: MigrationError.self) { try await runner.requireCurrent() }
            #expect(try await runner.status().allSatisfy { !$0.isApplied })

            let applied = try await runner.migrate()
            #expect(applied == migrations.map(\.name))
            #expect(try await runner.migrate().isEmpty)
            #expect(try await runner.status().allSatisfy(\.isApplied))
            try await runner.requireCurrent()

            let tables = try await client.query(
                """
                SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name
                """
            ).map { try $0.decode("table_name", as: String.self) }
            for table in [
                "notifications", "transactions", "renewal_info", "subscriptions", "subscribers",
                "products", "status_events", "schema_migrations",
            ] {
                #expect(tables.contains(table), "missing table \(table)")
            }
        }
    }

    @Test("files apply in version order, and a failing one rolls back alone")
    func orderAndFailure() async throws {
        try await withEmptyDatabase { client in
            let directory = try schema([
                "0001_initial.sql": "CREATE TABLE a (id int);",
                "0002_second.sql": "INSERT INTO a VALUES (1);",
                "0003_broken.sql": "INSERT INTO a VALUES (2); SELECT * FROM missing_table;",
            ])
            let runner = MigrationRunner(client: client, migrations: try Migration.load(from: directory))
            await #expect(throws: PostgresError.self) { try await runner.migrate() }
            let status = try await runner.status()
            #expect(status.map(\.isApplied) == [true, true, false])
            let values = try await client.query("SELECT id FROM a ORDER BY id").map { try $0.decode("id", as: Int.self) }
            #expect(values == [1])
        }
    }

    @Test("an applied file that changed is an error naming it")
    func changedFile() async throws {
        try await withEmptyDatabase { client in
            let original = try schema(["0001_initial.sql": "CREATE TABLE a (id int);"])
            _ = try await MigrationRunner(client: client, migrations: try Migration.load(from: original)).migrate()
            let edited = try schema(["0001_initial.sql": "CREATE TABLE a (id bigint);"])
            let runner = MigrationRunner(client: client, migrations: try Migration.load(from: edited))
            await #expect(throws: MigrationError.checksumMismatch(name: "0001_initial")) { try await runner.status() }
            await #expect(throws: MigrationError.checksumMismatch(name: "0001_initial")) { try await runner.migrate() }
        }
    }

    @Test("a release works against the schema of the next: a newer migration is accepted and named, an unknown older one refused")
    func schemaAhead() async throws {
        try await withEmptyDatabase { client in
            let newer = try schema([
                "0001_initial.sql": "CREATE TABLE a (id int);", "0002_second.sql": "ALTER TABLE a ADD COLUMN note text;",
                "0004_fourth.sql": "CREATE TABLE b (id int);",
            ])
            _ = try await MigrationRunner(client: client, migrations: try Migration.load(from: newer)).migrate()
            // The release before knew 0001 and 0002 only: it runs, and is told the schema is ahead.
            let previous = MigrationRunner(
                client: client,
                migrations: try Migration.load(
                    from: try schema([
                        "0001_initial.sql": "CREATE TABLE a (id int);", "0002_second.sql": "ALTER TABLE a ADD COLUMN note text;",
                    ])))
            #expect(try await previous.requireCurrent() == ["0004_fourth"])
            #expect(try await previous.migrate().isEmpty)
            // A build whose newest is 0003 does not know the applied 0002 it never had: 0002 is
            // not a later release's, so it is refused, not ignored.
            let foreign = MigrationRunner(
                client: client,
                migrations: try Migration.load(
                    from: try schema(["0001_initial.sql": "CREATE TABLE a (id int);", "0003_third.sql": "SELECT 1;"])))
            await #expect(throws: MigrationError.unknownAppliedMigration(name: "0002_second")) { try await foreign.status() }
            // The current build: nothing ahead.
            #expect(try await MigrationRunner(client: client, migrations: try Migration.load(from: newer)).requireCurrent().isEmpty)
        }
    }

    @Test("badly named files are refused")
    func badNames() throws {
        let directory = try schema(["0001_initial.sql": "SELECT 1;", "2_oops.sql": "SELECT 1;"])
        #expect(throws: MigrationError.badFileName("2_oops.sql")) { try Migration.load(from: directory) }
    }
}
