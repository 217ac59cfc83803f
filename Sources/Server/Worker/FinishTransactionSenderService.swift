import Foundation
import Logging
import Metrics
import ServiceLifecycle
import ServiceSupport
import UseCases

/// Sends due Finish Transactions in the background (`TransactionFinishing`): every
/// `interval`, and again at once while whole batches were due. Safe in several processes:
/// each claims its finishes `FOR UPDATE SKIP LOCKED`.
///
/// `subscriptiond_transaction_finishes_total{outcome}`: `finished`, `retrying` (Apple did not
/// take it; tried again with backoff), `failed` (refused for good: see `subscriber show`).
struct FinishTransactionSenderService: Service {
    let finishing: TransactionFinishing
    let interval: Duration
    let logger: Logger

    private static let batch = 20

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            var full = false
            do {
                let outcomes = try await finishing.sendDue(limit: Self.batch, logger: logger)
                for outcome in outcomes {
                    Counter(label: "subscriptiond_transaction_finishes_total", dimensions: [("outcome", outcome.rawValue)]).increment()
                    if outcome != .finished {
                        logger.info("finish transaction not taken", metadata: ["outcome": "\(outcome.rawValue)"])
                    }
                }
                full = outcomes.count == Self.batch
            } catch {
                logger.warning("finish transactions could not be sent; will try at the next interval", metadata: [LogKey.error: "\(error)"])
            }
            if !full {
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            }
        }
    }
}
