/// A leased connection as seen from inside `withConnection` / `withTransaction`.
///
/// Its methods block; they run on the client's thread pool, where the closure runs.
public struct PostgresSession {
    let connection: PostgresConnection

    /// Runs a statement and returns its rows.
    @discardableResult
    public func query(_ query: PostgresQuery) throws -> [PostgresRow] {
        try connection.execute(query).rows
    }

    /// Runs a statement and returns how many rows it inserted, updated or deleted.
    @discardableResult
    public func execute(_ query: PostgresQuery) throws -> Int {
        try connection.execute(query).affectedRows
    }

    /// Runs a statement expected to return at most one row.
    public func queryFirst(_ query: PostgresQuery) throws -> PostgresRow? {
        try connection.execute(query).rows.first
    }

    /// Runs static SQL with several statements and no parameters (schema migrations only).
    public func runScript(_ sql: String) throws {
        _ = try connection.runScript(sql)
    }
}
