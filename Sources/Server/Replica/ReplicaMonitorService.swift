import Metrics
import ServiceLifecycle
import StoredAnswers

/// Checks the read replica every `ReplicaMonitor.interval` (reads follow what it finds) and
/// publishes what it found: `subscriptiond_database_replica_lag_seconds` (-1 while the
/// replica cannot be asked or is not a standby) and whether reads use it now.
struct ReplicaMonitorService: Service {
    static let lag = Gauge(label: "subscriptiond_database_replica_lag_seconds")
    static let inUse = Gauge(label: "subscriptiond_database_replica_in_use")
    static let readsFromPrimary = Counter(label: "subscriptiond_database_reads_total", dimensions: [("database", "primary")])
    static let readsFromReplica = Counter(label: "subscriptiond_database_reads_total", dimensions: [("database", "replica")])

    let monitor: ReplicaMonitor

    /// Counts one read by where it went (the route's `onRead`).
    static func recordRead(_ target: ReplicaRoute.Target) {
        switch target {
        case .primary: readsFromPrimary.increment()
        case .replica: readsFromReplica.increment()
        }
    }

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let staleness = await monitor.check()
            Self.lag.record(staleness.map { $0 / .seconds(1) } ?? -1)
            Self.inUse.record(monitor.route.current == .replica ? 1 : 0)
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: ReplicaMonitor.interval) }
        }
    }
}
