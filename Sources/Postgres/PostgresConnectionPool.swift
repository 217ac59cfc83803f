/// Hands out exclusive leases, at most `maximumConnections` at once.
///
/// The pool only does bookkeeping, so it never blocks: a lease carries either an idle
/// connection or, when none is idle but a slot is free, nothing — the leaseholder then
/// opens one on the blocking thread pool. Leaseholders check an idle connection's health
/// before use, so one the server killed while idle is replaced instead of used.
actor PostgresConnectionPool {
    private let maximumConnections: Int
    private var idle: [PostgresConnection] = []
    private var leasedCount = 0
    private var waiters: [CheckedContinuation<Void, any Error>] = []
    private var isClosed = false

    init(maximumConnections: Int) {
        self.maximumConnections = maximumConnections
    }

    /// Takes a slot, waiting while all are leased; returns an idle connection if there is one.
    func lease() async throws -> PostgresConnection? {
        while true {
            guard !isClosed else { throw PostgresError(.clientClosed, message: "the database client is shut down") }
            if leasedCount < maximumConnections {
                leasedCount += 1
                return idle.popLast()
            }
            try await withCheckedThrowingContinuation { waiters.append($0) }
        }
    }

    /// Gives the slot back, keeping the connection for reuse when it is still usable.
    func release(_ connection: PostgresConnection?) {
        leasedCount -= 1
        if let connection, !connection.isBroken, !isClosed {
            idle.append(connection)
        }
        if !waiters.isEmpty {
            waiters.removeFirst().resume()
        }
    }

    /// Drops idle connections and fails every waiter; leased connections close on release.
    func close() {
        isClosed = true
        idle.removeAll()
        let pending = waiters
        waiters.removeAll()
        for waiter in pending {
            waiter.resume(throwing: PostgresError(.clientClosed, message: "the database client is shut down"))
        }
    }
}
