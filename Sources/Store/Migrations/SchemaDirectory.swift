import Foundation

/// Finds the `Schema/` directory holding the migration files.
public enum SchemaDirectory {
    /// The directory named by `explicit` (flag or `SUBSCRIPTIOND_SCHEMA_DIR`), else the first
    /// `Schema/` found in the working directory, beside or above the executable, or in the
    /// system share directories.
    public static func locate(explicit: String?) throws -> URL {
        if let explicit, !explicit.isEmpty {
            let url = URL(fileURLWithPath: explicit)
            guard isSchemaDirectory(url) else { throw MigrationError.schemaDirectoryNotFound(searched: [explicit]) }
            return url
        }
        let candidates = defaultCandidates()
        if let found = candidates.first(where: isSchemaDirectory) { return found }
        throw MigrationError.schemaDirectoryNotFound(searched: candidates.map(\.path))
    }

    private static func defaultCandidates() -> [URL] {
        InstalledResources.candidates("Schema")
    }

    private static func isSchemaDirectory(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent("0001_initial.sql").path)
    }
}
