import CLibPQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The libpq side of waiting for one statement's answer, without the waiting itself.
///
/// `advance` does whatever libpq can do without blocking — flush what was sent, take every
/// result that has fully arrived — and says which socket events it needs next; the caller
/// waits for them however it waits (`poll` on a thread-pool thread, or the client's socket
/// poller from a task), calls `socketReady`, and advances again until `advance` returns
/// nil. Both ways of waiting drive this one state machine, so they fail the same way.
struct PostgresResultCollector: ~Copyable {
    private let connection: PostgresConnection
    private var flushed = false
    /// Set when the server hung up after some results: keep those, read nothing more.
    private var inputEnded = false
    private var results: [OpaquePointer] = []

    init(connection: PostgresConnection) {
        self.connection = connection
        connection.commitUnconfirmed = false
    }

    deinit {
        results.forEach { PQclear($0) }
    }

    /// The socket events to wait for before calling `socketReady`, or nil when every
    /// result is in.
    mutating func advance() throws -> Int16? {
        let handle = connection.handle
        if !flushed {
            switch PQflush(handle) {
            case 0: flushed = true
            // libpq's advice for a partial flush: wait for either, and read what the server
            // sent, or it may stop reading us.
            case 1: return Int16(POLLIN | POLLOUT)
            default: throw connection.lost()
            }
        }
        while !inputEnded {
            if PQisBusy(handle) == 1 { return Int16(POLLIN) }
            guard let result = PQgetResult(handle) else { return nil }
            results.append(result)
        }
        return nil
    }

    /// Reads what the server sent once the socket reported `events`.
    mutating func socketReady(_ events: Int16) throws {
        if !flushed && events & Int16(POLLIN) == 0 { return }
        guard PQconsumeInput(connection.handle) == 1 else {
            // A server that ends the session (pg_terminate_backend) sends its error first:
            // report that one rather than the closed socket.
            let error = connection.lost()
            if !flushed || results.isEmpty { throw error }
            inputEnded = true
            return
        }
    }

    /// The first failed result's error, else the last result (or the error of none at all).
    consuming func finish() throws -> PostgresResult {
        var results = self.results
        self.results = []
        defer { results.forEach { PQclear($0) } }
        if connection.commitUnconfirmed {
            connection.isAbandoned = true
            throw PostgresConnection.unconfirmedCommit
        }
        let failed = results.firstIndex { !Self.isSuccess(PQresultStatus($0)) }
        guard let chosen = failed ?? results.indices.last else {
            return try PostgresResult.consume(nil, connection: connection)
        }
        // consume frees the chosen result; the defer frees the rest.
        return try PostgresResult.consume(results.remove(at: chosen), connection: connection)
    }

    private static func isSuccess(_ status: ExecStatusType) -> Bool {
        status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK || status == PGRES_EMPTY_QUERY
    }
}
