import Foundation
import Logging
import ServiceLifecycle
import Store
import SubscriptiondCore

/// The background job that removes receipts from notifications processed more than
/// `days` ago (at start, then every `interval`); see `ReceiptRetention`.
public struct RetentionService: Service {
    private let retention: ReceiptRetention
    private let days: Int
    private let dropSigned: Bool
    private let interval: Duration
    private let logger: Logger

    /// Creates the job.
    public init(retention: ReceiptRetention, days: Int, dropSigned: Bool, interval: Duration, logger: Logger) {
        self.retention = retention
        self.days = days
        self.dropSigned = dropSigned
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                let cutoff = Date().addingTimeInterval(-Double(days) * 86_400)
                let run = try await retention.run(cutoff: cutoff, dropSigned: dropSigned)
                if run.receiptsRemoved + run.signedRemoved > 0 {
                    logger.info(
                        "retention removed receipts",
                        metadata: [
                            "receipts_removed": "\(run.receiptsRemoved)", "signed_removed": "\(run.signedRemoved)", "cutoff": "\(cutoff)",
                        ])
                }
            } catch {
                logger.warning("retention run failed; will try at the next interval", metadata: [LogKey.error: "\(error)"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }
}
