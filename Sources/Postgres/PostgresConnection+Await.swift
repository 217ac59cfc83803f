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
/// wait for the socket ourselves and, when the deadline passes, abandon the connection: its
/// protocol state is unknown, so it is never used again and closes when the pool drops it.
///
/// Two ways to wait, one state machine (`PostgresResultCollector`): blocking in `poll` on
/// the client's thread pool (inside `withConnection`), or suspended on the client's
/// `PostgresSocketPoller` (single statements, which need no thread of their own).
extension PostgresConnection {
    /// Flushes the statement just sent, then reads every result until libpq has no more,
    /// blocking this thread. Returns the first error result's error, else the last result.
    func awaitResult(within budget: Duration) throws -> PostgresResult {
        let deadline = ContinuousClock.now + budget
        var collector = PostgresResultCollector(connection: self)
        while let events = try collector.advance() {
            try collector.socketReady(try waitForSocket(events: events, until: deadline, budget: budget))
        }
        return try collector.finish()
    }

    /// The same as `awaitResult(within:)`, suspending the task on `poller` instead of
    /// blocking a thread.
    func awaitResult(within budget: Duration, on poller: PostgresSocketPoller) async throws -> PostgresResult {
        let deadline = ContinuousClock.now + budget
        var collector = PostgresResultCollector(connection: self)
        while let events = try collector.advance() {
            let socket = PQsocket(handle)
            guard socket >= 0 else { throw lost() }
            let ready: Int16
            do {
                ready = try await poller.wait(for: events, on: socket, until: deadline)
            } catch is PostgresSocketPoller.DeadlinePassed {
                throw missedDeadline(budget)
            } catch {
                // The statement is in flight and nobody will read its answer: never reuse this.
                isAbandoned = true
                throw error
            }
            try collector.socketReady(ready)
        }
        return try collector.finish()
    }

    /// Waits until the socket is ready for `events` (or reports an error/hang-up, which the
    /// next libpq call turns into an error); past the deadline, abandons the connection.
    private func waitForSocket(events: Int16, until deadline: ContinuousClock.Instant, budget: Duration) throws -> Int16 {
        let socket = PQsocket(handle)
        guard socket >= 0 else { throw lost() }
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw missedDeadline(budget) }
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&descriptor, 1, remaining.pollTimeoutMilliseconds)
            if ready > 0 { return descriptor.revents }
            if ready < 0, errno != EINTR {
                isAbandoned = true
                throw PostgresError(.connectionLost, message: "waiting for the database failed (errno \(errno))")
            }
        }
    }

    /// Abandons the connection after the server missed the deadline of a `budget` wait.
    private func missedDeadline(_ budget: Duration) -> PostgresError {
        isAbandoned = true
        return PostgresError(.connectionLost, message: "the database did not answer within \(budget.secondsText) s")
    }

    /// The error for a failed read or write; whatever libpq says, the protocol state is
    /// unknown afterwards, so the connection is abandoned.
    func lost() -> PostgresError {
        isAbandoned = true
        return PostgresError(.connectionLost, message: lastErrorMessage)
    }
}
