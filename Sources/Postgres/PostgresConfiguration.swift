/// How to reach PostgreSQL, how many connections to keep, and how long anything may take.
///
/// Every wait has a bound, so a database that stops answering turns into transient errors
/// within seconds instead of hung requests: the pool lease, the statement on the server
/// (`statement_timeout`), the statement on the client (a deadline on the socket), and the
/// TCP connection itself (keepalives and `tcp_user_timeout`).
public struct PostgresConfiguration: Sendable {
    /// A libpq connection string or `postgresql://` URL; its parameters override the defaults below.
    public var connectionString: String
    /// The most connections open at once; also the number of blocking threads.
    public var maximumConnections: Int
    /// Seconds libpq waits for a connection to open before calling the server unreachable.
    public var connectTimeoutSeconds: Int
    /// Shown in `pg_stat_activity`.
    public var applicationName: String
    /// How long a caller waits for a free pooled connection before a transient `.poolTimeout`.
    public var leaseTimeout: Duration
    /// The server-side `statement_timeout` of every session (SQLSTATE 57014 when exceeded).
    public var statementTimeout: Duration
    /// How long the client waits for the server's answer to one statement before it declares
    /// the connection lost; defaults to `statementTimeout` plus 5 s, so the server's own
    /// timeout normally fires first and this catches only a silent network or server.
    public var statementDeadline: Duration {
        get { explicitStatementDeadline ?? statementTimeout + .seconds(5) }
        set { explicitStatementDeadline = newValue }
    }
    /// The client deadline (and the raised `statement_timeout`) for `runScript`: migrations may be long.
    public var scriptDeadline: Duration
    /// The server-side `idle_in_transaction_session_timeout`: a session left inside a transaction ends.
    public var idleInTransactionTimeout: Duration
    /// The server-side `lock_timeout`: a statement waiting this long for a lock fails (SQLSTATE 55P03).
    public var lockTimeout: Duration
    /// TCP keepalive settings and `tcp_user_timeout`, passed to libpq as defaults a URL can override.
    public var tcp: TCPSettings
    /// Told of every attempt to open a connection: the server reached (`host:port`, the one
    /// libpq chose among a multi-host URL's hosts), or nil when none could be reached.
    public var onConnect: (@Sendable (_ server: String?) -> Void)?

    private var explicitStatementDeadline: Duration?

    /// TCP-level failure detection for connections whose peer vanished without a reset.
    public struct TCPSettings: Sendable, Equatable {
        /// Seconds of idleness before the first keepalive probe (`keepalives_idle`).
        public var keepalivesIdleSeconds: Int
        /// Seconds between keepalive probes (`keepalives_interval`).
        public var keepalivesIntervalSeconds: Int
        /// Unanswered probes before the kernel drops the connection (`keepalives_count`).
        public var keepalivesCount: Int
        /// Milliseconds sent data may stay unacknowledged before the kernel drops the connection.
        public var userTimeoutMilliseconds: Int

        /// Creates TCP settings; the defaults notice a dead peer within about 10 s.
        public init(
            keepalivesIdleSeconds: Int = 5, keepalivesIntervalSeconds: Int = 2, keepalivesCount: Int = 3,
            userTimeoutMilliseconds: Int = 10_000
        ) {
            self.keepalivesIdleSeconds = max(1, keepalivesIdleSeconds)
            self.keepalivesIntervalSeconds = max(1, keepalivesIntervalSeconds)
            self.keepalivesCount = max(1, keepalivesCount)
            self.userTimeoutMilliseconds = max(0, userTimeoutMilliseconds)
        }
    }

    /// Creates a configuration; the defaults suit one `subscriptiond` process.
    ///
    /// `statementDeadline` nil means `statementTimeout` plus 5 s.
    public init(
        connectionString: String,
        maximumConnections: Int = 10,
        connectTimeoutSeconds: Int = 5,
        applicationName: String = "subscriptiond",
        leaseTimeout: Duration = .seconds(5),
        statementTimeout: Duration = .seconds(30),
        statementDeadline: Duration? = nil,
        scriptDeadline: Duration = .seconds(600),
        idleInTransactionTimeout: Duration = .seconds(60),
        lockTimeout: Duration = .seconds(10),
        tcp: TCPSettings = TCPSettings(),
        onConnect: (@Sendable (_ server: String?) -> Void)? = nil
    ) {
        self.connectionString = connectionString
        self.maximumConnections = max(1, maximumConnections)
        self.connectTimeoutSeconds = max(1, connectTimeoutSeconds)
        self.applicationName = applicationName
        self.leaseTimeout = leaseTimeout
        self.statementTimeout = statementTimeout
        self.explicitStatementDeadline = statementDeadline
        self.scriptDeadline = scriptDeadline
        self.idleInTransactionTimeout = idleInTransactionTimeout
        self.lockTimeout = lockTimeout
        self.tcp = tcp
        self.onConnect = onConnect
    }
}
