import CLibPQ
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waiting for the server with libpq's asynchronous API, so no wait outlives a deadline.
///
/// A blocking `PQexec` waits forever on a peer that acknowledges TCP but never answers
/// (a userspace proxy that stopped forwarding); TCP keepalives cannot see that. Instead we
/// poll the socket ourselves and, when the deadline passes, abandon the connection: its
/// protocol state is unknown, so it is never used again and closes when the pool drops it.
extension PostgresConnection {
    /// Flushes the statement just sent, then reads every result until libpq has no more.
    /// Returns the first error result's error, else the last result.
    func awaitResult(within budget: Duration) throws -> PostgresResult {
        let deadline = ContinuousClock.now + budget
        try flush(until: deadline, budget: budget)
        var results: [OpaquePointer] = []
        defer { results.forEach { PQclear($0) } }
        collecting: while true {
            while PQisBusy(handle) == 1 {
                _ = try waitForSocket(events: POLLIN, until: deadline, budget: budget)
                guard PQconsumeInput(handle) == 1 else {
                    // A server that ends the session (pg_terminate_backend) sends its error
                    // first: report that one rather than the closed socket.
                    let error = lost()
                    if results.isEmpty { throw error }
                    break collecting
                }
            }
            guard let result = PQgetResult(handle) else { break }
            results.append(result)
        }
        let failed = results.firstIndex { !Self.isSuccess(PQresultStatus($0)) }
        guard let chosen = failed ?? results.indices.last else {
            return try PostgresResult.consume(nil, connection: self)
        }
        // consume frees the chosen result; the defer frees the rest.
        return try PostgresResult.consume(results.remove(at: chosen), connection: self)
    }

    private static func isSuccess(_ status: ExecStatusType) -> Bool {
        status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK || status == PGRES_EMPTY_QUERY
    }

    /// Pushes libpq's output buffer to the socket (non-blocking mode may leave part unsent).
    private func flush(until deadline: ContinuousClock.Instant, budget: Duration) throws {
        while true {
            switch PQflush(handle) {
            case 0:
                return
            case 1:
                let ready = try waitForSocket(events: POLLIN | POLLOUT, until: deadline, budget: budget)
                // libpq's advice: read what the server sent, or it may stop reading us.
                if ready & Int16(POLLIN) != 0, PQconsumeInput(handle) != 1 { throw lost() }
            default:
                throw lost()
            }
        }
    }

    /// Waits until the socket is ready for `events` (or reports an error/hang-up, which the
    /// next libpq call turns into an error); past the deadline, abandons the connection.
    private func waitForSocket(events: Int32, until deadline: ContinuousClock.Instant, budget: Duration) throws -> Int16 {
        let socket = PQsocket(handle)
        guard socket >= 0 else { throw lost() }
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else {
                isAbandoned = true
                throw PostgresError(.connectionLost, message: "the database did not answer within \(budget.secondsText) s")
            }
            // Round up so a sub-millisecond remainder does not spin.
            let milliseconds = Int32(clamping: remaining.clampedMilliseconds + 1)
            var descriptor = pollfd(fd: socket, events: Int16(events), revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return descriptor.revents }
            if ready < 0, errno != EINTR {
                isAbandoned = true
                throw PostgresError(.connectionLost, message: "waiting for the database failed (errno \(errno))")
            }
        }
    }

    private func lost() -> PostgresError {
        // Whatever libpq says, a failed read or write leaves the protocol state unknown.
        isAbandoned = true
        return PostgresError(.connectionLost, message: lastErrorMessage)
    }
}
