import CLibPQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One libpq connection in non-blocking mode, used only while exclusively leased from the
/// pool. The synchronous methods block the calling thread, never longer than a deadline:
/// call them only on the client's thread pool. The `async` ones suspend on the client's
/// socket poller instead and may run on any task.
final class PostgresConnection: @unchecked Sendable {
    // @unchecked: the pool hands a connection to exactly one lease at a time, and a lease
    // uses it from one thread-pool job or one task at a time, so `handle` is never touched
    // concurrently.
    let handle: OpaquePointer
    let timeouts: PostgresTimeouts
    /// Set when the server missed a deadline: the protocol state is unknown, so the
    /// connection must never carry another statement.
    var isAbandoned = false
    /// Set when the server said this session must end or cannot write (a failover under
    /// it): the pool drops it instead of handing it out again.
    var isRetired = false
    /// Set by the notice receiver when the statement's commit was not confirmed by the
    /// synchronous standby (`PostgresConnection+Failover.swift`); reset for every statement.
    var commitUnconfirmed = false
    /// libpq's own notice receiver, which the failover watch passes other notices on to.
    var defaultNoticeReceiver: PQnoticeReceiver?
    /// The statements prepared on this connection (`PostgresQuery.prepared()`), by SQL text.
    var preparedStatements = PreparedStatementCache(capacity: PostgresConnection.maximumPreparedStatements)

    /// The most statements one connection keeps prepared; more run unprepared.
    static let maximumPreparedStatements = 64

    private init(handle: OpaquePointer, timeouts: PostgresTimeouts) {
        self.handle = handle
        self.timeouts = timeouts
    }

    deinit {
        PQfinish(handle)
    }

    /// Opens a connection and sets the session up the way our decoders expect (UTC, ISO
    /// dates) with the configured server-side timeouts.
    static func connect(_ configuration: PostgresConfiguration) throws -> PostgresConnection {
        try validate(configuration.connectionString)
        let tcp = configuration.tcp
        // Keywords listed before "dbname" are defaults: values inside the URL override them.
        let settings: [(String, String)] = [
            ("connect_timeout", String(configuration.connectTimeoutSeconds)),
            ("keepalives", "1"),
            ("keepalives_idle", String(tcp.keepalivesIdleSeconds)),
            ("keepalives_interval", String(tcp.keepalivesIntervalSeconds)),
            ("keepalives_count", String(tcp.keepalivesCount)),
            ("tcp_user_timeout", String(tcp.userTimeoutMilliseconds)),
            ("application_name", configuration.applicationName),
            ("dbname", configuration.connectionString),
        ]
        let handle: OpaquePointer? = withCStringArray(settings.map(\.0)) { keywordPointers in
            withCStringArray(settings.map(\.1)) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let handle else {
            throw PostgresError(.unreachable, message: "libpq could not allocate a connection")
        }
        let connection = PostgresConnection(handle: handle, timeouts: PostgresTimeouts(configuration))
        connection.watchForUnconfirmedCommits()
        guard PQstatus(handle) == CONNECTION_OK else {
            let reason = connection.lastErrorMessage
            // libpq checks option values (port, sslmode, …) only when connecting; those
            // messages start with "invalid", while network failures never do.
            if reason.hasPrefix("invalid ") {
                throw PostgresError(.invalidConfiguration, message: "invalid DATABASE_URL: \(reason)")
            }
            throw PostgresError(.unreachable, message: "database unreachable: \(reason)")
        }
        // Non-blocking, so sending a large statement to a peer that stopped reading cannot
        // block past the deadline either.
        guard PQsetnonblocking(handle, 1) == 0 else {
            throw PostgresError(.unreachable, message: "database unreachable: \(connection.lastErrorMessage)")
        }
        _ = try connection.simpleQuery(connection.timeouts.sessionSetup, within: connection.timeouts.statementDeadline)
        return connection
    }

    /// Parses the connection string without connecting, so a malformed one is reported as
    /// a configuration error, not as an unreachable server.
    static func validate(_ connectionString: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(connectionString, &errorMessage) else {
            let reason = errorMessage.map { String(cString: $0).trimmingTrailingWhitespace() } ?? "cannot be parsed"
            if let errorMessage { PQfreemem(errorMessage) }
            throw PostgresError(.invalidConfiguration, message: "invalid DATABASE_URL: \(reason)")
        }
        PQconninfoFree(options)
    }

    /// True when the connection is still usable. An idle connection of ours is sent nothing
    /// (we never LISTEN on pooled connections), so any pending input — typically the
    /// server's goodbye after `pg_terminate_backend` or a restart — means it is finished.
    var isHealthy: Bool {
        guard isReusable, PQtransactionStatus(handle) == PQTRANS_IDLE else { return false }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 0
    }

    /// Executes one statement with bound parameters (extended protocol: one statement only,
    /// values never part of the SQL text) and returns its rows and affected-row count.
    /// Waits at most the statement deadline for the answer (for each round trip: a
    /// statement prepared here first takes two).
    ///
    /// A query marked `prepared()` is parsed and planned by the server once per connection
    /// and afterwards executed by name, while the cache has room.
    func execute(_ query: PostgresQuery) throws -> PostgresResult {
        let parameters = try PostgresParameters(query.bindings)
        try ensureUsable()
        if query.isPrepared, let name = try preparedName(for: query.sql, parameterCount: parameters.count) {
            try sendPrepared(name, parameters)
        } else {
            try sendUnprepared(query.sql, parameters)
        }
        return try awaitResult(within: timeouts.statementDeadline)
    }

    /// The same as `execute(_:)`, suspending the task on `poller` while the server works
    /// instead of blocking a thread.
    func execute(_ query: PostgresQuery, on poller: PostgresSocketPoller) async throws -> PostgresResult {
        let parameters = try PostgresParameters(query.bindings)
        try ensureUsable()
        if query.isPrepared, let name = try await preparedName(for: query.sql, parameterCount: parameters.count, on: poller) {
            try sendPrepared(name, parameters)
        } else {
            try sendUnprepared(query.sql, parameters)
        }
        return try await awaitResult(within: timeouts.statementDeadline, on: poller)
    }

    private func sendPrepared(_ name: String, _ parameters: PostgresParameters) throws {
        let sent = parameters.withValuePointers { values in
            PQsendQueryPrepared(handle, name, parameters.count, values, parameters.lengths, parameters.formats, 0)
        }
        guard sent == 1 else { throw sendFailure() }
    }

    private func sendUnprepared(_ sql: String, _ parameters: PostgresParameters) throws {
        let sent = parameters.withValuePointers { values in
            PQsendQueryParams(handle, sql, parameters.count, nil, values, parameters.lengths, parameters.formats, 0)
        }
        guard sent == 1 else { throw sendFailure() }
    }

    /// Runs static SQL through the simple-query protocol (several statements allowed, no
    /// parameters). Only for schema migrations and admin statements written by us, so the
    /// server's `statement_timeout` is raised to the script deadline while it runs.
    func runScript(_ sql: String) throws -> PostgresResult {
        _ = try simpleQuery(timeouts.scriptSetup, within: timeouts.statementDeadline)
        // Inside a transaction that the script aborted this fails, and the rollback restores
        // the setting anyway; a connection left in a transaction is not reused.
        defer { _ = try? simpleQuery(timeouts.scriptReset, within: timeouts.statementDeadline) }
        return try simpleQuery(sql, within: timeouts.scriptDeadline)
    }

    /// Sends SQL with the simple-query protocol and waits at most `budget` for all results.
    func simpleQuery(_ sql: String, within budget: Duration) throws -> PostgresResult {
        try ensureUsable()
        guard PQsendQuery(handle, sql) == 1 else { throw sendFailure() }
        return try awaitResult(within: budget)
    }

    /// libpq's last error text for this connection, trimmed.
    var lastErrorMessage: String {
        guard let message = PQerrorMessage(handle) else { return "unknown error" }
        return String(cString: message).trimmingTrailingWhitespace()
    }

    /// True when libpq considers the connection broken or it missed a deadline.
    var isBroken: Bool { isAbandoned || PQstatus(handle) != CONNECTION_OK }

    /// True when the pool may hand the connection out again: not broken, not retired.
    var isReusable: Bool { !isBroken && !isRetired }

    private func ensureUsable() throws {
        if isAbandoned {
            throw PostgresError(.connectionLost, message: "the connection was abandoned after a missed deadline")
        }
    }

    func sendFailure() -> PostgresError {
        PostgresError(isBroken ? .connectionLost : .server, message: lastErrorMessage)
    }
}

private func withCStringArray<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let buffers = strings.map { Array($0.utf8CString) }
    return withPointers(to: buffers.map { Optional($0) }) { pointers in
        body(pointers + [nil])
    }
}

/// Calls `body` with stable C pointers to each buffer (nil stays nil).
private func withPointers<R>(to buffers: [[CChar]?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    var pointers: [UnsafePointer<CChar>?] = []
    pointers.reserveCapacity(buffers.count)
    func recurse(_ index: Int) -> R {
        if index == buffers.count { return body(pointers) }
        guard let buffer = buffers[index] else {
            pointers.append(nil)
            return recurse(index + 1)
        }
        return buffer.withUnsafeBufferPointer { raw in
            pointers.append(raw.baseAddress)
            return recurse(index + 1)
        }
    }
    return recurse(0)
}

extension String {
    func trimmingTrailingWhitespace() -> String {
        var result = Substring(self)
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return String(result)
    }
}
