import Metrics
import Synchronization

/// Where this process's database connections go, for following a failover:
/// `subscriptiond_database_server{database, server}` is 1 for the server the newest
/// connection reached (with a multi-host `DATABASE_URL`, the one libpq found taking
/// writes) and 0 for those reached before, and
/// `subscriptiond_database_connects_total{database, outcome}` counts connections `opened`
/// and attempts `failed` (no host reachable, or none taking writes). Beyond the pool's
/// first connections, every `opened` is a reconnect.
enum DatabaseConnectionMetrics {
    /// The server each database's newest connection reached.
    private static let current = Mutex<[String: String]>([:])

    /// Records one attempt to connect to `database` (`primary` or `replica`): the server
    /// reached, or nil when none was.
    static func record(database: String, server: String?) {
        guard let server else {
            Counter(label: "subscriptiond_database_connects_total", dimensions: [("database", database), ("outcome", "failed")]).increment()
            return
        }
        Counter(label: "subscriptiond_database_connects_total", dimensions: [("database", database), ("outcome", "opened")]).increment()
        // Inside the lock, so two connections reaching different servers at once leave the
        // gauges agreeing with `current`.
        current.withLock { servers in
            let previous = servers[database]
            guard previous != server else { return }
            servers[database] = server
            if let previous {
                Gauge(label: "subscriptiond_database_server", dimensions: [("database", database), ("server", previous)]).record(0)
            }
            Gauge(label: "subscriptiond_database_server", dimensions: [("database", database), ("server", server)]).record(1)
        }
    }
}
