import Logging
import Postgres
import ServiceSupport
import Store
import Synchronization

/// Keeps `route` told how far the read replica is behind the primary: each check samples
/// the primary's WAL position, then asks the replica how far it has replayed
/// (``ReplicaStaleness``). A replica that cannot be asked, or is not a standby, takes no reads.
public final class ReplicaMonitor: Sendable {
    /// Between two checks.
    public static let interval: Duration = .milliseconds(200)

    private let primary: PostgresClient
    private let replica: PostgresClient
    public let route: ReplicaRoute
    private let tracker = Mutex(ReplicaStaleness())
    private let warnedNotStandby = Mutex(false)
    private let logger: Logger

    /// A monitor of `replica` against `primary`, steering `route`.
    public init(primary: PostgresClient, replica: PostgresClient, route: ReplicaRoute, logger: Logger) {
        self.primary = primary
        self.replica = replica
        self.route = route
        self.logger = logger
    }

    /// One check: the replica's staleness now (nil: it takes no reads), recorded in `route`.
    @discardableResult
    public func check() async -> Duration? {
        do {
            let position = try await ReplicationPositions.primary(primary)
            tracker.withLock { $0.recordPrimary(position, at: .now) }
        } catch {
            // The samples taken so far still bound the replica's age, which grows until the primary answers.
            logger.debug("replica check: the primary's WAL position is unknown", metadata: [LogKey.error: "\(error)"])
        }
        let staleness: Duration?
        do {
            if let replayed = try await ReplicationPositions.replayed(replica) {
                staleness = tracker.withLock { $0.staleness(replayed: replayed, now: .now) }
            } else {
                staleness = nil
                let warned = warnedNotStandby.withLock { warned in
                    defer { warned = true }
                    return warned
                }
                if !warned {
                    logger.warning("DATABASE_READ_URL is not a streaming replica in recovery; reads stay on the primary")
                }
            }
        } catch {
            staleness = nil
            logger.debug("replica check: the replica does not answer", metadata: [LogKey.error: "\(error)"])
        }
        route.record(staleness: staleness)
        return staleness
    }
}
