import CLibPQ

/// Server-side prepared statements: parsed and planned once per connection.
extension PostgresConnection {
    /// The server-side name of `sql`, preparing it now if this connection has not yet;
    /// nil when the cache is full (the caller runs it unprepared). A statement the server
    /// refuses to prepare throws its error and is not remembered.
    func preparedName(for sql: String, parameterCount: Int32) throws -> String? {
        guard let (name, isNew) = try cachedOrNewName(for: sql, parameterCount: parameterCount) else { return nil }
        if isNew {
            _ = try awaitResult(within: timeouts.statementDeadline)
            // Prepared statements are not transactional: a later ROLLBACK keeps this one.
            preparedStatements.remember(sql, as: name)
        }
        return name
    }

    /// The same as `preparedName(for:parameterCount:)`, waiting on `poller`.
    func preparedName(for sql: String, parameterCount: Int32, on poller: PostgresSocketPoller) async throws -> String? {
        guard let (name, isNew) = try cachedOrNewName(for: sql, parameterCount: parameterCount) else { return nil }
        if isNew {
            _ = try await awaitResult(within: timeouts.statementDeadline, on: poller)
            preparedStatements.remember(sql, as: name)
        }
        return name
    }

    /// The name `sql` is prepared under, or a new name with the `Parse` already sent
    /// (`isNew`: the caller awaits its result, then remembers it); nil when the cache is full.
    private func cachedOrNewName(for sql: String, parameterCount: Int32) throws -> (name: String, isNew: Bool)? {
        if let name = preparedStatements.name(for: sql) { return (name, false) }
        guard let name = preparedStatements.nameForNewStatement() else { return nil }
        // Parameter types are left to the server to infer, as for an unprepared statement.
        guard PQsendPrepare(handle, name, sql, parameterCount, nil) == 1 else { throw sendFailure() }
        return (name, true)
    }
}
