import Logging
import ServiceSupport
import Store

/// The last readiness check (database reachable, schema current), reused for a few seconds so
/// that any number of unauthenticated probes cost at most one check per `freshness`.
actor ReadinessCache {
    private let migrations: MigrationRunner
    private let freshness: Duration
    private var last: (at: ContinuousClock.Instant, problem: String?)?
    private var running: Task<String?, Never>?

    init(migrations: MigrationRunner, freshness: Duration = .seconds(2)) {
        self.migrations = migrations
        self.freshness = freshness
    }

    /// Nil when ready, else a sentence saying why not.
    func problem(logger: Logger) async -> String? {
        if let last, ContinuousClock.now - last.at < freshness { return last.problem }
        // Concurrent callers share one check instead of each starting their own.
        let check = running ?? Task { [migrations] in await Self.check(migrations, logger: logger) }
        running = check
        let problem = await check.value
        running = nil
        last = (ContinuousClock.now, problem)
        return problem
    }

    private static func check(_ migrations: MigrationRunner, logger: Logger) async -> String? {
        do {
            try await migrations.requireCurrent()
            return nil
        } catch let error as MigrationError {
            return "\(error)"
        } catch {
            logger.warning("readiness check failed", metadata: [LogKey.error: "\(error)"])
            return "the database is unreachable"
        }
    }
}
