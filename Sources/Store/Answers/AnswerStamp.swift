import Postgres

/// What a stored answer was computed from: the answer row's `version` and the catalog
/// generation, read by the lookup that found the stored answer stale, before the facts.
/// A change committed between that lookup and the fact read raises the version past the
/// stamp, so the answer stored with it is never served: it is served only while neither
/// has changed since the lookup (Schema/0007_read_answers.sql).
public struct AnswerStamp: Sendable, Equatable {
    /// `subscription_answers.version` or `subscriber_answers.version` (0 before the first change).
    public let version: Int64
    /// `answer_catalog_generation.generation`.
    public let catalogGeneration: Int64

    init(version: Int64, catalogGeneration: Int64) {
        self.version = version
        self.catalogGeneration = catalogGeneration
    }

    /// Reads the stamp a lookup selected as `answer_version` (NULL: no row yet, so version 0)
    /// and `answer_catalog_generation`.
    init(row: PostgresRow) throws {
        self.init(
            version: try row.decode("answer_version", as: Int64?.self) ?? 0, catalogGeneration: try row.decode("answer_catalog_generation"))
    }
}
