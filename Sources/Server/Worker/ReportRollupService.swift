import Foundation
import Logging
import Metrics
import ServiceLifecycle
import ServiceSupport
import UseCases

/// The rollup job: counts the chains whose facts changed into the reports' rollups, every
/// `interval`, and batch after batch (with a short pause) while whole batches wait, so a
/// backlog drains at a bounded rate. Several processes take turns; one counts at a time.
struct ReportRollupService: Service {
    static let pause: Duration = .milliseconds(20)

    let counting: ReportRollupCounting
    let interval: Duration
    let logger: Logger

    func run() async throws {
        let counted = Counter(label: "subscriptiond_report_rollup_chains_total")
        var failing = false
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            var whole = false
            do {
                if let chains = try await counting.countChanges() {
                    counted.increment(by: Int64(chains))
                    whole = chains >= counting.batchSize
                }
                if failing { logger.notice("the report rollups are counted again") }
                failing = false
            } catch {
                if !failing {
                    logger.warning(
                        "counting the report rollups failed; the changes stay queued and are tried at the next interval",
                        metadata: [LogKey.error: "\(error)"])
                }
                failing = true
            }
            let sleep = whole ? Self.pause : interval
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: sleep) }
        }
    }
}
