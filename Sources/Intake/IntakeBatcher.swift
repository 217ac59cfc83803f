import Logging
import ServiceSupport
import Store
import Synchronization

/// Group commit for intake: entries that arrive while earlier batches are being stored are
/// stored together, with one statement and one commit, and each caller is answered once
/// that commit returned.
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

    private let inbox: NotificationInbox
    private let configuration: Configuration
    private let onStored: @Sendable () async -> Void
    private let logger: Logger
    private let state: Mutex<IntakeBatchQueue>

    /// A batcher storing into `inbox`; `onStored` runs after every batch that stored something new.
    public init(
        inbox: NotificationInbox, configuration: Configuration = Configuration(), logger: Logger,
        onStored: @escaping @Sendable () async -> Void = {}
    ) {
        self.inbox = inbox
        self.configuration = configuration
        state = Mutex(
            IntakeBatchQueue(
                maximumQueued: configuration.maximumQueued, maximumBatchesInFlight: configuration.maximumBatchesInFlight))
        self.logger = logger
        self.onStored = onStored
    }

    /// Stores `entry` with the next batch and returns once that batch committed, with what
    /// `NotificationInbox.insert` would have answered.
    ///
    /// Throws `IntakeBatcherError` when the queue is full, the wait timed out or the batcher
    /// is closed, `CancellationError` when the calling task is cancelled, and the store's
    /// error when the entry's batch (or, for a data error, the entry itself) failed.
    public func insert(_ entry: InboxEntry) async throws -> InboxInsertResult {
        try Task.checkCancellation()
        let id = state.withLock { $0.allocateID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: IntakeBatchQueue.Continuation) in
                let admission = state.withLock { queue in
                    queue.admit(id: id, entry: entry, continuation: continuation, deadline: .now + configuration.queueTimeout)
                }
                switch admission {
                case .refused(let error): continuation.resume(throwing: error)
                case .queued: break
                case .startBatches: Task { await self.storeBatches() }
                case .startSweeper: Task { await self.sweepExpired() }
                }
            }
        } onCancel: {
            answer([id], with: .failure(CancellationError()))
        }
    }

    /// Refuses new entries and fails the queued ones with `closed`; batches under way finish.
    public func close() {
        let continuations = state.withLock { $0.close() }
        for continuation in continuations { continuation.resume(throwing: IntakeBatcherError(.closed)) }
    }

    /// One batch slot's loop: takes everything queued (up to the batch size) and stores it,
    /// until the queue is empty; then gives the slot back.
    private func storeBatches() async {
        while true {
            let batch = state.withLock { $0.takeBatch(maximumSize: configuration.maximumBatchSize) }
            guard !batch.isEmpty else { return }
            await store(batch)
        }
    }

    private func store(_ batch: [IntakeBatchQueue.Queued]) async {
        let ids = batch.map(\.id)
        do {
            let results = try await inbox.insertBatch(batch.map(\.entry))
            for (id, result) in zip(ids, results) { answer([id], with: .success(result)) }
            if results.contains(where: { if case .accepted = $0 { true } else { false } }) { await onStored() }
        } catch  where batch.count > 1 && Self.isCausedByAnEntry(error) {
            logger.warning(
                "an intake batch failed on one entry's data; storing its entries one by one",
                metadata: [
                    LogKey.error: "\(error)", LogKey.batchSize: "\(batch.count)",
                ])
            await storeOneByOne(batch)
        } catch {
            answer(ids, with: .failure(error))
        }
    }

    /// The fallback after a data error: each entry in its own statement and commit, so one
    /// bad entry fails alone. Later duplicates in the batch find the earlier ones stored.
    private func storeOneByOne(_ batch: [IntakeBatchQueue.Queued]) async {
        var storedAny = false
        for queued in batch {
            do {
                let result = try await inbox.insert(queued.entry)
                if case .accepted = result { storedAny = true }
                answer([queued.id], with: .success(result))
            } catch {
                answer([queued.id], with: .failure(error))
            }
        }
        if storedAny { await onStored() }
    }

    /// Fails queued entries whose wait passed the queue timeout, until the queue is empty.
    private func sweepExpired() async {
        while true {
            let (expired, next) = state.withLock { $0.removeExpired(now: .now) }
            for continuation in expired { continuation.resume(throwing: IntakeBatcherError(.timedOut)) }
            guard let next else { return }
            try? await Task.sleep(until: next, clock: .continuous)
        }
    }

    private func answer(_ ids: [UInt64], with result: Result<InboxInsertResult, any Error>) {
        let continuations = state.withLock { queue in ids.compactMap { queue.removeWaiter($0) } }
        for continuation in continuations { continuation.resume(with: result) }
    }

    /// True when the error comes from an entry's data, not from the database being unavailable.
    static func isCausedByAnEntry(_ error: any Error) -> Bool {
        StoreFailure(error)?.isCausedByData == true
    }
}
