/// Hands out exclusive leases, at most `maximumConnections` at once.
///
/// The pool only does bookkeeping, so it never blocks: a lease carries either an idle
/// connection or, when none is idle but a slot is free, nothing — the leaseholder then
/// opens one on the blocking thread pool. Leaseholders check an idle connection's health
/// before use, so one the server killed while idle is replaced instead of used.
///
/// A released slot passes straight to the oldest waiter, so a waiter that was woken owns
/// its slot and no newcomer can take it first. A waiter leaves the queue in exactly one way
/// — handed a slot, timed out, cancelled, or failed by `close()` — and every one of them
/// runs on this actor after removing the waiter, so each continuation resumes exactly once
/// and a timeout racing a release either gets the slot or leaves it to the next waiter.
actor PostgresConnectionPool {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<PostgresConnection?, any Error>
        let timer: Task<Void, Never>
    }

    private let maximumConnections: Int
    private var idle: [PostgresConnection] = []
    private var leasedCount = 0
    private var waiters: [Waiter] = []
    private var nextWaiterID: UInt64 = 0
    private var isClosed = false

    init(maximumConnections: Int) {
        self.maximumConnections = maximumConnections
    }

    /// Takes a slot, waiting at most `timeout` while all are leased; returns an idle
    /// connection if there is one. Throws `.poolTimeout` after the timeout and
    /// `CancellationError` when the waiting task is cancelled.
    func lease(timeout: Duration) async throws -> PostgresConnection? {
        guard !isClosed else { throw Self.closedError }
        if leasedCount < maximumConnections {
            leasedCount += 1
            return idle.popLast()
        }
        try Task.checkCancellation()
        let id = nextWaiterID
        nextWaiterID += 1
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let timer = Task { [weak self] in
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }
                    await self?.fail(
                        waiter: id,
                        with: PostgresError(
                            .poolTimeout, message: "no database connection free within \(timeout.secondsText) s"))
                }
                waiters.append(Waiter(id: id, continuation: continuation, timer: timer))
            }
        } onCancel: {
            // Runs after the waiter is queued: this actor is busy until the continuation suspends.
            Task { await self.fail(waiter: id, with: CancellationError()) }
        }
    }

    /// Connections leased, idle connections kept, and leases waiting, right now.
    func statistics() -> PostgresPoolStatistics {
        PostgresPoolStatistics(inUse: leasedCount, idle: idle.count, waiting: waiters.count)
    }

    /// Gives the slot back, keeping the connection for reuse when it is still usable.
    func release(_ connection: PostgresConnection?) {
        let reusable = connection.flatMap { $0.isReusable && !isClosed ? $0 : nil }
        guard !waiters.isEmpty else {
            leasedCount -= 1
            if let reusable { idle.append(reusable) }
            return
        }
        // The slot stays counted as leased: it now belongs to the oldest waiter.
        let waiter = waiters.removeFirst()
        waiter.timer.cancel()
        waiter.continuation.resume(returning: reusable ?? idle.popLast())
    }

    /// Drops idle connections and fails every waiter; leased connections close on release.
    func close() {
        isClosed = true
        idle.removeAll()
        let pending = waiters
        waiters.removeAll()
        for waiter in pending {
            waiter.timer.cancel()
            waiter.continuation.resume(throwing: Self.closedError)
        }
    }

    /// Removes a waiter that is still queued and fails it; one already served is left alone.
    private func fail(waiter id: UInt64, with error: any Error) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        let waiter = waiters.remove(at: index)
        waiter.timer.cancel()
        waiter.continuation.resume(throwing: error)
    }

    private static var closedError: PostgresError {
        PostgresError(.clientClosed, message: "the database client is shut down")
    }
}
