import Foundation
import Logging
import ServiceLifecycle
import ServiceSupport
import Store

/// The background job that keeps the stored history in bounds, at start and then every
/// `interval`: it makes the coming months' partitions, removes receipts from notifications
/// processed more than `days` ago (see `ReceiptRetention`), and with `partitionDays` drops
/// whole months that ended longer ago and hold nothing waiting (see `PartitionMaintenance`).
public struct RetentionService: Service {
    private let retention: ReceiptRetention
    private let days: Int
    private let dropSigned: Bool
    private let partitions: PartitionMaintenance
    private let partitionDays: Int?
    private let interval: Duration
    private let logger: Logger

    /// Creates the job.
    public init(
        retention: ReceiptRetention, days: Int, dropSigned: Bool, partitions: PartitionMaintenance, partitionDays: Int?,
        interval: Duration, logger: Logger
    ) {
        self.retention = retention
        self.days = days
        self.dropSigned = dropSigned
        self.partitions = partitions
        self.partitionDays = partitionDays
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            await keepPartitions()
            await removeReceipts()
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }

    private func keepPartitions() async {
        let now = Date()
        do {
            let made = try await partitions.makeMonths(from: now)
            if made > 0 { logger.info("made monthly partitions", metadata: ["partitions_made": "\(made)"]) }
            guard let partitionDays else { return }
            let cutoff = now.addingTimeInterval(-Double(partitionDays) * 86_400)
            let drop = try await partitions.dropFinishedMonths(before: cutoff, now: now)
            if !drop.partitions.isEmpty || drop.keysRemoved > 0 {
                logger.info(
                    "retention dropped finished months",
                    metadata: [
                        "partitions": "\(drop.partitions.joined(separator: ","))", "dedupe_keys_removed": "\(drop.keysRemoved)",
                        "cutoff": "\(cutoff)",
                    ])
            }
        } catch {
            logger.warning("partition maintenance failed; will try at the next interval", metadata: [LogKey.error: "\(error)"])
        }
    }

    private func removeReceipts() async {
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
    }
}
