import CLibPQ
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One libpq connection. Every method blocks: call them only on the client's thread pool,
/// and only while the connection is exclusively leased from the pool.
final class PostgresConnection: @unchecked Sendable {
    // @unchecked: the pool hands a connection to exactly one lease at a time, and a lease
    // uses it from one thread-pool job at a time, so `handle` is never touched concurrently.
    private let handle: OpaquePointer

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        PQfinish(handle)
    }

    /// Opens a connection and sets the session up the way our decoders expect (UTC, ISO dates).
    static func connect(_ configuration: PostgresConfiguration) throws -> PostgresConnection {
        try validate(configuration.connectionString)
        // Keywords listed before "dbname" are defaults: values inside the URL override them.
        let keywords = ["connect_timeout", "application_name", "dbname"]
        let values = [String(configuration.connectTimeoutSeconds), configuration.applicationName, configuration.connectionString]
        let handle: OpaquePointer? = withCStringArray(keywords) { keywordPointers in
            withCStringArray(values) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let handle else {
            throw PostgresError(.unreachable, message: "libpq could not allocate a connection")
        }
        let connection = PostgresConnection(handle: handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            let reason = connection.lastErrorMessage
            // libpq checks option values (port, sslmode, …) only when connecting; those
            // messages start with "invalid", while network failures never do.
            if reason.hasPrefix("invalid ") {
                throw PostgresError(.invalidConfiguration, message: "invalid DATABASE_URL: \(reason)")
            }
            throw PostgresError(.unreachable, message: "database unreachable: \(reason)")
        }
        _ = try connection.runScript("SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'iso_8601'; SET client_min_messages = 'warning'")
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
        guard PQstatus(handle) == CONNECTION_OK, PQtransactionStatus(handle) == PQTRANS_IDLE else { return false }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 0
    }

    /// Executes one statement with bound parameters (extended protocol: one statement only,
    /// values never part of the SQL text) and returns its rows and affected-row count.
    func execute(_ query: PostgresQuery) throws -> PostgresResult {
        let count = query.bindings.count
        var lengths = [Int32](repeating: 0, count: count)
        var formats = [Int32](repeating: 0, count: count)
        var buffers: [[CChar]?] = []
        buffers.reserveCapacity(count)
        for (index, value) in query.bindings.enumerated() {
            switch value {
            case .null:
                buffers.append(nil)
            case .text(let text):
                buffers.append(Array(text.utf8CString))
            case .binary(let bytes):
                buffers.append(bytes.map { CChar(bitPattern: $0) })
                lengths[index] = Int32(bytes.count)
                formats[index] = 1
            }
        }
        let result: OpaquePointer? = withPointers(to: buffers) { valuePointers in
            PQexecParams(handle, query.sql, Int32(count), nil, valuePointers, lengths, formats, 0)
        }
        return try PostgresResult.consume(result, connection: self)
    }

    /// Runs static SQL through the simple-query protocol (several statements allowed, no
    /// parameters). Only for schema migrations and session set-up written by us.
    func runScript(_ sql: String) throws -> PostgresResult {
        try PostgresResult.consume(PQexec(handle, sql), connection: self)
    }

    /// libpq's last error text for this connection, trimmed.
    var lastErrorMessage: String {
        guard let message = PQerrorMessage(handle) else { return "unknown error" }
        return String(cString: message).trimmingTrailingWhitespace()
    }

    /// True when libpq considers the connection broken.
    var isBroken: Bool { PQstatus(handle) != CONNECTION_OK }
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
