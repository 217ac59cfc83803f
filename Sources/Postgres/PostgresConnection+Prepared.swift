import CLibPQ

/// Server-side prepared statements: parsed and planned once per connection.
extension PostgresConnection {
    /// The server-side name of `sql`, preparing it now if this connection has not yet;
    /// nil when the cache is full (the caller runs it unprepared). A statement the server
    /// refuses to prepare throws its error and is not remembered.
    func preparedName(for sql: String, parameterCount: Int32) throws -> String? {
        if let name = preparedStatements.name(for: sql) { return name }
        guard let name = preparedStatements.nameForNewStatement() else { return nil }
        // Parameter types are left to the server to infer, as for an unprepared statement.
        guard PQsendPrepare(handle, name, sql, parameterCount, nil) == 1 else { throw sendFailure() }
        _ = try awaitResult(within: timeouts.statementDeadline)
        // Prepared statements are not transactional: a later ROLLBACK keeps this one.
        preparedStatements.remember(sql, as: name)
        return name
    }
}
