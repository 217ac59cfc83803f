import Foundation
import Logging
import Metrics
import ServiceLifecycle
import Store
import SubscriptiondCore

/// Runs `SubscriptionSweep` (time moves status): every `interval`, and batch after batch
/// while whole batches are due, with a pause between them, so a backlog after an outage
/// drains oldest first at a bounded rate (`batchSize` per `pause`) instead of a storm.
struct StatusSweepService: Service {
    static let batchSize = 200
    static let pause: Duration = .milliseconds(100)

    let sweep: SubscriptionSweep
    let interval: Duration
    let logger: Logger

    func run() async throws {
        let swept = Counter(label: "subscriptiond_status_sweep_subscriptions_total")
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            var wait = interval
            do {
                let claimed = try await sweep.sweep(limit: Self.batchSize)
                swept.increment(by: Int64(claimed))
                if claimed == Self.batchSize { wait = Self.pause }
            } catch {
                logger.warning("status sweep failed; will try at the next interval", metadata: [LogKey.error: "\(error)"])
            }
            let sleep = wait
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: sleep) }
        }
    }
}
