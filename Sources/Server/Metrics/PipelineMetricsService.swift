import Composition
import Foundation
import Logging
import Metrics
import ServiceLifecycle
import ServiceSupport
import Store
import UseCases

/// Samples the pipeline's gauges every `interval`: the inbox backlog and its oldest entry,
/// the database pool, and what the status sweep and entitlement reviews have due. Runs in
/// every process, the intake-only ones too (their inbox is the one that grows).
struct PipelineMetricsService: Service {
    let components: ServiceComponents
    let interval: Duration
    let logger: Logger

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            await sample()
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }

    func sample() async {
        let pool = await components.databaseConnections()
        PipelineMetrics.databaseInUse.record(pool.inUse)
        PipelineMetrics.databaseIdle.record(pool.idle)
        PipelineMetrics.databaseWaiting.record(pool.waiting)
        do {
            let now = Date()
            let inbox = try await components.inbox.backlog()
            PipelineMetrics.inboxPending.record(inbox.unfinished)
            PipelineMetrics.inboxOldestPendingSeconds.record(inbox.oldestReceivedAt.map { max(0, now.timeIntervalSince($0)) } ?? 0)
            PipelineMetrics.sweepDue.record(try await components.sweep.backlog(now: now).due)
            PipelineMetrics.entitlementReviewsDue.record(try await components.entitlementReviews.backlog(now: now).due)
            PipelineMetrics.databaseUp.record(1)
        } catch {
            PipelineMetrics.databaseUp.record(0)
            logger.debug("pipeline metrics: the database did not answer", metadata: [LogKey.error: "\(error)"])
        }
    }
}
