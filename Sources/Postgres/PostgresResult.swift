import CLibPQ

/// The outcome of one statement, copied out of libpq's `PGresult`.
public struct PostgresResult: Sendable {
    /// The rows returned (empty for statements without a result set).
    public let rows: [PostgresRow]
    /// Rows inserted, updated or deleted, from `PQcmdTuples`.
    public let affectedRows: Int

    /// Copies a `PGresult` into Swift values and frees it; throws the server's error if it failed.
    static func consume(_ result: OpaquePointer?, connection: PostgresConnection) throws -> PostgresResult {
        guard let result else {
            // libpq returns no result only when it could not send the statement at all.
            throw PostgresError(connection.isBroken ? .connectionLost : .server, message: connection.lastErrorMessage)
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return PostgresResult(rows: copyRows(result), affectedRows: Int(String(cString: PQcmdTuples(result))) ?? 0)
        default:
            throw error(from: result, connection: connection)
        }
    }

    private static func copyRows(_ result: OpaquePointer) -> [PostgresRow] {
        let rowCount = Int(PQntuples(result))
        let columnCount = Int(PQnfields(result))
        guard rowCount > 0 else { return [] }
        let columns = PostgresColumns(names: (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) })
        var rows: [PostgresRow] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<Int32(rowCount) {
            var values: [String?] = []
            values.reserveCapacity(columnCount)
            for column in 0..<Int32(columnCount) {
                if PQgetisnull(result, row, column) == 1 {
                    values.append(nil)
                } else {
                    values.append(String(cString: PQgetvalue(result, row, column)))
                }
            }
            rows.append(PostgresRow(columns: columns, values: values))
        }
        return rows
    }

    private static func error(from result: OpaquePointer, connection: PostgresConnection) -> PostgresError {
        func field(_ code: Unicode.Scalar) -> String? {
            guard let value = PQresultErrorField(result, Int32(code.value)) else { return nil }
            return String(cString: value)
        }
        let sqlState = field("C")
        let message = field("M") ?? connection.lastErrorMessage
        if PostgresConnection.retires(sqlState: sqlState) { connection.isRetired = true }
        if connection.isBroken {
            return PostgresError(.connectionLost, sqlState: sqlState, message: message)
        }
        return PostgresError(.server, sqlState: sqlState, message: message, detail: field("D"))
    }
}
