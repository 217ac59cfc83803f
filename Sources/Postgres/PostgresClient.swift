import Logging
import NIOPosix
import Synchronization

/// The entry point to PostgreSQL: a pool of libpq connections whose blocking calls all
/// run on a dedicated `NIOThreadPool`, never on an event loop or the cooperative pool.
/// A single statement (`query`, `execute`) blocks nothing: the calling task sends it and
/// suspends on the client's `PostgresSocketPoller` until the answer is in.
///
/// ```swift
/// let client = PostgresClient(configuration: .init(connectionString: url), logger: logger)
/// let rows = try await client.query("SELECT 1 AS one")
/// try await client.withTransaction { session in try session.execute("...") }
/// ```
public final class PostgresClient: Sendable {
    private let threadPool: NIOThreadPool
    /// Nil where epoll is missing: single statements then wait on `threadPool` too.
    private let poller: PostgresSocketPoller?
    private let pool: PostgresConnectionPool
    private let configuration: PostgresConfiguration
    private let logger: Logger
    /// The server the newest connection reached, to log when a failover moves us.
    private let currentServer = Mutex<String?>(nil)

    /// Creates a client; no connection is opened until the first use.
    public init(configuration: PostgresConfiguration, logger: Logger) {
        let threadPool = NIOThreadPool(numberOfThreads: configuration.maximumConnections)
        threadPool.start()
        self.threadPool = threadPool
        self.poller = PostgresSocketPoller()
        self.pool = PostgresConnectionPool(maximumConnections: configuration.maximumConnections)
        self.configuration = configuration
        self.logger = logger
    }

    /// The pool at this moment (for metrics).
    public func poolStatistics() async -> PostgresPoolStatistics {
        await pool.statistics()
    }

    /// Runs one statement on a leased connection and returns its rows.
    ///
    /// `leaseTimeout` overrides the configured wait for a free connection for this call.
    @discardableResult
    public func query(_ query: PostgresQuery, leaseTimeout: Duration? = nil) async throws -> [PostgresRow] {
        try await run(query, leaseTimeout: leaseTimeout).rows
    }

    /// Runs one statement and returns how many rows it changed.
    ///
    /// `leaseTimeout` overrides the configured wait for a free connection for this call.
    @discardableResult
    public func execute(_ query: PostgresQuery, leaseTimeout: Duration? = nil) async throws -> Int {
        try await run(query, leaseTimeout: leaseTimeout).affectedRows
    }

    /// One statement on a leased connection, waited for on the poller, so no thread blocks
    /// on it; without a poller, on the thread pool like `withConnection`.
    private func run(_ query: PostgresQuery, leaseTimeout: Duration?) async throws -> PostgresResult {
        guard let poller else {
            return try await withConnection(leaseTimeout: leaseTimeout) { session in try session.connection.execute(query) }
        }
        return try await withLease(leaseTimeout) { connection in try await connection.execute(query, on: poller) }
    }

    /// Leases one connection for the duration of `body`, which runs on the blocking thread pool.
    ///
    /// Waits at most `leaseTimeout` (default: the configuration's) for a free connection,
    /// then throws a transient `.poolTimeout`; a cancelled task stops waiting with
    /// `CancellationError`. An idle connection is health-checked first and replaced when
    /// the server dropped it; a connection that breaks or misses a deadline during `body`
    /// is closed rather than handed out again.
    @discardableResult
    public func withConnection<T: Sendable>(
        leaseTimeout: Duration? = nil,
        _ body: @escaping @Sendable (PostgresSession) throws -> T
    ) async throws -> T {
        try await withLease(leaseTimeout) { connection in
            try await threadPool.runIfActive { try body(PostgresSession(connection: connection)) }
        }
    }

    /// The lease every call goes through: takes a slot, uses its idle connection if it is
    /// still healthy or else opens one (a blocking libpq call, on the thread pool), runs
    /// `body` with it, and gives the slot back on every path.
    private func withLease<T>(_ leaseTimeout: Duration?, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        var connection = try await pool.lease(timeout: leaseTimeout ?? configuration.leaseTimeout)
        do {
            let ready: PostgresConnection
            if let idle = connection, idle.isHealthy {
                ready = idle
            } else {
                connection = nil
                ready = try await open()
                connection = ready
            }
            let value = try await body(ready)
            await pool.release(connection)
            return value
        } catch {
            await release(connection, after: error)
            throw error
        }
    }

    /// Opens a connection on the thread pool, tells `onConnect`, and logs when it reached
    /// another server than the previous one (after a failover: the new primary).
    private func open() async throws -> PostgresConnection {
        let configuration = self.configuration
        let connection: PostgresConnection
        do {
            connection = try await threadPool.runIfActive { try PostgresConnection.connect(configuration) }
        } catch let error as PostgresError where error.code == .unreachable {
            configuration.onConnect?(nil)
            throw error
        }
        let server = connection.serverAddress
        configuration.onConnect?(server)
        let previous = currentServer.withLock { current in
            defer { current = server }
            return current
        }
        if let previous, previous != server {
            logger.info("database connections now reach another server", metadata: ["server": "\(server)", "previous": "\(previous)"])
        }
        return connection
    }

    /// Gives a lease back after `error`, noting a failed connection (the pool drops it).
    private func release(_ connection: PostgresConnection?, after error: any Error) async {
        await pool.release(connection)
        if let error = error as? PostgresError, error.code == .connectionLost || error.code == .unreachable {
            logger.debug("database connection failed", metadata: ["error": "\(error)"])
        }
    }

    /// Runs `body` inside `BEGIN … COMMIT`; any error thrown rolls everything back.
    ///
    /// `leaseTimeout` overrides the configured wait for a free connection for this call.
    @discardableResult
    public func withTransaction<T: Sendable>(
        leaseTimeout: Duration? = nil,
        _ body: @escaping @Sendable (PostgresSession) throws -> T
    ) async throws -> T {
        try await withConnection(leaseTimeout: leaseTimeout) { session in
            try session.execute("BEGIN")
            do {
                let value = try body(session)
                try session.execute("COMMIT")
                return value
            } catch {
                // A failed ROLLBACK means the connection is gone (or abandoned after a missed
                // deadline, which fails at once); the server rolls back anyway.
                _ = try? session.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Closes every connection and stops the thread pool; later calls fail with `.clientClosed`.
    public func shutdown() async throws {
        await pool.close()
        try await poller?.shutdown()
        try await threadPool.shutdownGracefully()
    }
}
