import Foundation
import Logging
import Metrics
import ServiceLifecycle
import ServiceSupport
import Store

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
            let sweptWhole = await batch("status sweep", counter: swept) { try await sweep.sweep(limit: Self.batchSize) }
            let reviewedWhole = await batch("entitlement review", counter: reviewed) { try await reviews.review(limit: Self.batchSize) }
            let sleep = sweptWhole || reviewedWhole ? Self.pause : interval
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: sleep) }
        }
    }

    /// Runs one batch of `work`, counting what it claimed; true when it claimed a whole batch
    /// (more may be due at once). A failure is logged and waits for the next interval.
    private func batch(_ name: String, counter: Counter, _ work: () async throws -> Int) async -> Bool {
        do {
            let claimed = try await work()
            counter.increment(by: Int64(claimed))
            return claimed == Self.batchSize
        } catch {
            logger.warning("\(name) failed; will try at the next interval", metadata: [LogKey.error: "\(error)"])
            return false
        }
    }
}
