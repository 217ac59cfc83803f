import Logging
import ServiceSupport
import Store

/// Group commit for intake (a ``GroupCommit`` of inbox entries): entries that arrive while
/// earlier batches are being stored are stored together, with one statement and one commit,
/// and each caller is answered once that commit returned.
///
/// Natural batching, no timer: an entry that finds a free batch slot starts a batch at once
/// (an idle server adds no latency); while `maximumBatchesInFlight` batches are being
/// stored, new entries queue, and each slot that comes free takes everything queued, up to
/// `maximumBatchSize`. The queue is bounded (`overloaded` when full) and no entry waits in
/// it longer than `queueTimeout` (`timedOut`); a batch, once sent, is bounded by the
/// database client's own lease and statement deadlines.
///
/// A batch that fails because of one entry's data (an error of SQLSTATE class 22, 23 or
/// 54, or a value the client refuses to send) is stored again one entry at a time, so only
/// that entry fails. Any other failure (the database is unavailable) fails the whole batch,
/// which stored nothing.
///
/// A cancelled caller is answered at once with `CancellationError`; its entry may still be
/// stored by a batch already under way, which a redelivery then finds as a duplicate.
public final class IntakeBatcher: Sendable {
    /// Limits of the batcher.
    public struct Configuration: Sendable {
        /// The most entries stored by one statement.
        public var maximumBatchSize: Int
        /// The most batches being stored at once (each holds one database connection).
        public var maximumBatchesInFlight: Int
        /// The most entries waiting for a batch; more are refused as `overloaded`.
        public var maximumQueued: Int
        /// The longest an entry waits for a batch to take it.
        public var queueTimeout: Duration

        /// Creates a configuration.
        public init(
            maximumBatchSize: Int = 128, maximumBatchesInFlight: Int = 4, maximumQueued: Int = 4_096, queueTimeout: Duration = .seconds(2)
        ) {
            self.maximumBatchSize = max(1, maximumBatchSize)
            self.maximumBatchesInFlight = max(1, maximumBatchesInFlight)
            self.maximumQueued = max(1, maximumQueued)
            self.queueTimeout = queueTimeout
        }
    }

    private let commit: GroupCommit<InboxEntry, InboxInsertResult>

    /// A batcher storing into `inbox`; `onStored` runs after every batch that stored something
    /// new, once its callers have their answers.
    public init(
        inbox: NotificationInbox, configuration: Configuration = Configuration(), logger: Logger,
        onStored: @escaping @Sendable () async -> Void = {}
    ) {
        commit = GroupCommit(
            maximumBatchSize: configuration.maximumBatchSize, maximumInFlight: configuration.maximumBatchesInFlight,
            maximumQueued: configuration.maximumQueued, maximumWait: configuration.queueTimeout, cancellation: .answersAtOnce,
            writesAloneAfter: { Self.isCausedByAnEntry($0) },
            afterWrite: { results in
                if results.contains(where: { if case .accepted = $0 { true } else { false } }) { await onStored() }
            }
        ) { entries in
            do {
                return try await inbox.insertBatch(entries)
            } catch  where entries.count > 1 && Self.isCausedByAnEntry(error) {
                logger.warning(
                    "an intake batch failed on one entry's data; storing its entries one by one",
                    metadata: [LogKey.error: "\(error)", LogKey.batchSize: "\(entries.count)"])
                throw error
            }
        }
    }

    /// Stores `entry` with the next batch and returns once that batch committed, with what
    /// `NotificationInbox.insert` would have answered.
    ///
    /// Throws `IntakeBatcherError` when the queue is full, the wait timed out or the batcher
    /// is closed, `CancellationError` when the calling task is cancelled, and the store's
    /// error when the entry's batch (or, for a data error, the entry itself) failed.
    public func insert(_ entry: InboxEntry) async throws -> InboxInsertResult {
        do {
            return try await commit.submit(entry)
        } catch let refusal as GroupCommitRefusal {
            switch refusal.code {
            case .full: throw IntakeBatcherError(.overloaded)
            case .timedOut: throw IntakeBatcherError(.timedOut)
            case .closed: throw IntakeBatcherError(.closed)
            }
        }
    }

    /// Refuses new entries and fails the queued ones with `closed`; batches under way finish.
    public func close() {
        commit.close()
    }

    /// True when the error comes from an entry's data, not from the database being unavailable.
    static func isCausedByAnEntry(_ error: any Error) -> Bool {
        StoreFailure(error)?.isCausedByData == true
    }
}
