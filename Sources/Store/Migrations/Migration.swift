import Foundation

/// One schema migration file, `Schema/NNNN_name.sql`.
public struct Migration: Sendable, Equatable {
    /// The four-digit ordering prefix, e.g. `0001`.
    public let version: String
    /// The file name without `.sql`, e.g. `0001_initial`.
    public let name: String
    /// The SQL text, run as one script inside one transaction.
    public let sql: String
    /// SHA-256 of the file's bytes, lowercase hex: an applied file must never change.
    public let checksum: String

    /// Creates a migration from its file name (without `.sql`) and contents.
    public init?(name: String, contents: Data) {
        guard let sql = String(data: contents, encoding: .utf8) else { return nil }
        let prefix = name.prefix(while: { $0.isASCII && $0.isNumber })
        guard prefix.count == 4, name.count > 5, name[name.index(name.startIndex, offsetBy: 4)] == "_" else { return nil }
        self.version = String(prefix)
        self.name = name
        self.sql = sql
        self.checksum = ContentHash.sha256Hex(contents)
    }

    /// Loads every `NNNN_name.sql` file of a directory, in version order.
    public static func load(from directory: URL) throws -> [Migration] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") }
            .sorted()
        var migrations: [Migration] = []
        for fileName in names {
            let name = String(fileName.dropLast(4))
            let contents = try Data(contentsOf: directory.appendingPathComponent(fileName))
            guard let migration = Migration(name: name, contents: contents) else {
                throw MigrationError.badFileName(fileName)
            }
            if let previous = migrations.last, previous.version == migration.version {
                throw MigrationError.duplicateVersion(previous.name, migration.name)
            }
            migrations.append(migration)
        }
        return migrations
    }
}
