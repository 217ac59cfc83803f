/// One row of a result, copied out of libpq so it can outlive the result and cross threads.
///
/// Values arrive in PostgreSQL's text output format and are decoded on access:
/// ```swift
/// let status = try row.decode("status", as: String.self)
/// let expires = try row.decode("expires_at", as: Date?.self)
/// ```
public struct PostgresRow: Sendable {
    /// Column names of the result, shared by all its rows.
    let columns: PostgresColumns
    /// The text value of each column, `nil` for SQL NULL.
    let values: [String?]

    /// The names of the result's columns, in order.
    public var columnNames: [String] { columns.names }

    /// The raw text value of a column, `nil` for NULL.
    public func text(_ column: String) throws -> String? {
        values[try columns.index(of: column)]
    }

    /// Decodes the named column as `T`; a NULL decodes only into an optional.
    public func decode<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T {
        let index = try columns.index(of: column)
        do {
            return try T(postgresText: values[index])
        } catch let error as PostgresDecodingFailure {
            throw PostgresError(.decoding, message: "column \"\(column)\": \(error.reason)")
        }
    }
}

/// The column names of one result, with a name → index map built once.
final class PostgresColumns: Sendable {
    let names: [String]
    private let indexByName: [String: Int]

    init(names: [String]) {
        self.names = names
        var map: [String: Int] = [:]
        for (index, name) in names.enumerated() where map[name] == nil {
            map[name] = index
        }
        self.indexByName = map
    }

    func index(of column: String) throws -> Int {
        guard let index = indexByName[column] else {
            throw PostgresError(.decoding, message: "no column \"\(column)\" in the result")
        }
        return index
    }
}
