import Foundation
import Logging
import Metrics
import ServiceLifecycle
import Store
import SubscriptiondCore

/// Runs `SubscriptionSweep` (time moves status) and `EntitlementReviews` (changes and time
/// move entitlements): every `interval`, and batch after batch while whole batches are due,
/// with a pause between them, so a backlog after an outage drains oldest first at a bounded
/// rate (`batchSize` of each per `pause`) instead of a storm.
struct StatusSweepService: Service {
    static let batchSize = 200
    static let pause: Duration = .milliseconds(100)

    let sweep: SubscriptionSweep
    let reviews: EntitlementReviews
    let interval: Duration
    let logger: Logger

    func run() async throws {
        let swept = Counter(label: "subscriptiond_status_sweep_subscriptions_total")
        let reviewed = Counter(label: "subscriptiond_entitlement_reviews_total")
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            var wait = interval
            do {
                let claimed = try await sweep.sweep(limit: Self.batchSize)
                swept.increment(by: Int64(claimed))
                if claimed == Self.batchSize { wait = Self.pause }
            } catch {
                logger.warning("status sweep failed; will try at the next interval", metadata: [LogKey.error: "\(error)"])
            }
            do {
                let claimed = try await reviews.review(limit: Self.batchSize)
                reviewed.increment(by: Int64(claimed))
                if claimed == Self.batchSize { wait = Self.pause }
            } catch {
                logger.warning("entitlement review failed; will try at the next interval", metadata: [LogKey.error: "\(error)"])
            }
            let sleep = wait
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: sleep) }
        }
    }
}
