/// How to reach PostgreSQL and how many connections to keep.
public struct PostgresConfiguration: Sendable {
    /// A libpq connection string or `postgresql://` URL.
    public var connectionString: String
    /// The most connections open at once; also the number of blocking threads.
    public var maximumConnections: Int
    /// Seconds libpq waits for a connection to open before calling the server unreachable.
    public var connectTimeoutSeconds: Int
    /// Shown in `pg_stat_activity`.
    public var applicationName: String

    /// Creates a configuration; the defaults suit one `subscriptiond` process.
    public init(
        connectionString: String,
        maximumConnections: Int = 10,
        connectTimeoutSeconds: Int = 5,
        applicationName: String = "subscriptiond"
    ) {
        self.connectionString = connectionString
        self.maximumConnections = max(1, maximumConnections)
        self.connectTimeoutSeconds = max(1, connectTimeoutSeconds)
        self.applicationName = applicationName
    }
}
