/// Why migrations cannot be applied or checked.
public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No `Schema/` directory was found where we looked.
    case schemaDirectoryNotFound(searched: [String])
    /// A `.sql` file is not named `NNNN_name.sql` or is not UTF-8.
    case badFileName(String)
    /// Two files share a version number.
    case duplicateVersion(String, String)
    /// A migration already applied to the database has since been edited.
    case checksumMismatch(name: String)
    /// The database has a migration this build does not know that is not newer than all of
    /// its own (another branch's, or one whose file was removed).
    case unknownAppliedMigration(name: String)
    /// The database schema lacks migrations this build needs.
    case schemaBehind(pending: [String])

    public var description: String {
        switch self {
        case .schemaDirectoryNotFound(let searched):
            return "cannot find the Schema directory (looked in \(searched.joined(separator: ", "))); set SUBSCRIPTIOND_SCHEMA_DIR"
        case .badFileName(let name):
            return "schema file \(name) is not named NNNN_name.sql (UTF-8)"
        case .duplicateVersion(let first, let second):
            return "schema files \(first) and \(second) share a version number"
        case .checksumMismatch(let name):
            return "migration \(name) was changed after it was applied; restore the applied file and add a new migration instead"
        case .unknownAppliedMigration(let name):
            return
                "the database has migration \(name), which this build does not know and which is not newer than its own (another branch's, or a removed file); run the build that applied it"
        case .schemaBehind(let pending):
            return "database schema is behind: \(pending.joined(separator: ", ")) not applied; run `subscriptionctl migrate`"
        }
    }
}
