import Foundation
import Logging
import ServiceLifecycle
import ServiceSupport
import UseCases

/// Answers CONSUMPTION_REQUESTs in the background (`ConsumptionAnswers`): every `interval`,
/// and again at once while whole batches were due. Safe in several processes: each claims
/// its requests `FOR UPDATE SKIP LOCKED`.
struct ConsumptionSenderService: Service {
    let answers: ConsumptionAnswers
    let interval: Duration
    let logger: Logger

    private static let batch = 10

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            var full = false
            do {
                let outcomes = try await answers.sendDue(limit: Self.batch, logger: logger)
                for outcome in outcomes {
                    PipelineMetrics.consumptionAnswer(outcome: outcome.rawValue)
                    if outcome != .waiting {
                        logger.info("consumption request answered or retried", metadata: ["outcome": "\(outcome.rawValue)"])
                    }
                }
                full = outcomes.count == Self.batch
            } catch {
                logger.warning("consumption answers could not be sent; will try at the next interval", metadata: [LogKey.error: "\(error)"])
            }
            if !full {
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            }
        }
    }
}
