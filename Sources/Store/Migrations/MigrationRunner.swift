import Foundation
import Postgres

/// Applies and checks schema migrations: each file once, in order, each in its own
/// transaction, recorded with its checksum in `schema_migrations`.
public struct MigrationRunner: Sendable {
    /// Where one migration stands in the database.
    public struct Entry: Sendable, Equatable {
        /// The migration's file name without `.sql`.
        public let name: String
        /// When it was applied, nil while pending.
        public let appliedAt: Date?
        /// True once applied.
        public var isApplied: Bool { appliedAt != nil }
    }

    private let client: PostgresClient
    private let migrations: [Migration]

    /// Creates a runner over the migrations of one build.
    public init(client: PostgresClient, migrations: [Migration]) {
        self.client = client
        self.migrations = migrations
    }

    /// Every known migration with its state; throws if an applied file changed, or if an
    /// applied migration this build does not know is not newer than all of its own.
    public func status() async throws -> [Entry] {
        try await state().entries
    }

    /// Throws `.schemaBehind` unless every known migration is applied (the server's start-up
    /// check). Returns the applied migrations newer than every one this build knows: a newer
    /// release migrated the database, and this one keeps working against them
    /// (docs/upgrading.md: a migration only adds until the release after the one that stopped
    /// using what it removes), which is what lets processes be replaced one at a time.
    @discardableResult
    public func requireCurrent() async throws -> [String] {
        let (entries, ahead) = try await state()
        let pending = entries.filter { !$0.isApplied }.map(\.name)
        guard pending.isEmpty else { throw MigrationError.schemaBehind(pending: pending) }
        return ahead
    }

    /// The known migrations with their state, and the applied ones newer than all of them;
    /// one read of `schema_migrations`.
    private func state() async throws -> (entries: [Entry], ahead: [String]) {
        let applied = try await appliedMigrations()
        let ahead = try verify(applied: applied)
        return (migrations.map { Entry(name: $0.name, appliedAt: applied[$0.version]?.appliedAt) }, ahead)
    }

    /// Applies every pending migration in order and returns the names applied.
    ///
    /// An advisory lock serialises concurrent runners; each migration commits on its own,
    /// so a failure keeps the ones before it and leaves the failing one unapplied.
    public func migrate() async throws -> [String] {
        var appliedNow: [String] = []
        for migration in migrations {
            let wasApplied = try await client.withTransaction { session in
                try session.execute("SELECT pg_advisory_xact_lock(\(Self.advisoryLockKey))")
                try Self.ensureBookkeepingTable(session)
                if let row = try session.queryFirst("SELECT checksum FROM schema_migrations WHERE version = \(migration.version)") {
                    guard try row.decode("checksum", as: String.self) == migration.checksum else {
                        throw MigrationError.checksumMismatch(name: migration.name)
                    }
                    return false
                }
                try session.runScript(migration.sql)
                try session.execute(
                    """
                    INSERT INTO schema_migrations (version, name, checksum)
                    VALUES (\(migration.version), \(migration.name), \(migration.checksum))
                    """)
                return true
            }
            if wasApplied { appliedNow.append(migration.name) }
        }
        return appliedNow
    }

    // Arbitrary constant: "subscriptiond migrate" for pg_advisory_xact_lock.
    private static let advisoryLockKey: Int64 = 0x5355_4253_4D49_4752

    private static func ensureBookkeepingTable(_ session: PostgresSession) throws {
        try session.runScript(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version     text PRIMARY KEY,
                name        text NOT NULL,
                checksum    text NOT NULL,
                applied_at  timestamptz NOT NULL DEFAULT now()
            )
            """)
    }

    private struct Applied {
        let name: String
        let checksum: String
        let appliedAt: Date
    }

    private func appliedMigrations() async throws -> [String: Applied] {
        try await client.withConnection { session in
            let exists = try session.queryFirst("SELECT to_regclass('schema_migrations') IS NOT NULL AS present")
            guard try exists?.decode("present", as: Bool.self) == true else { return [:] }
            var applied: [String: Applied] = [:]
            for row in try session.query("SELECT version, name, checksum, applied_at FROM schema_migrations") {
                applied[try row.decode("version")] = Applied(
                    name: try row.decode("name"), checksum: try row.decode("checksum"), appliedAt: try row.decode("applied_at"))
            }
            return applied
        }
    }

    /// Checks every applied migration against this build's; returns the names of those newer
    /// than all of this build's (a later release's). An unknown one at or below this build's
    /// newest is not a later release's (another branch's, or a file removed): refused.
    private func verify(applied: [String: Applied]) throws -> [String] {
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
        let newest = migrations.compactMap { Int($0.version) }.max() ?? 0
        var ahead: [String] = []
        for (version, record) in applied.sorted(by: { $0.key < $1.key }) {
            guard let migration = known[version] else {
                guard let number = Int(version), number > newest else {
                    throw MigrationError.unknownAppliedMigration(name: record.name)
                }
                ahead.append(record.name)
                continue
            }
            guard migration.checksum == record.checksum else { throw MigrationError.checksumMismatch(name: migration.name) }
        }
        return ahead
    }
}
