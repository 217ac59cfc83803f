import ServiceSupport
import Store

/// The intake batcher's bookkeeping, a pure value guarded by the batcher's lock: the queued
/// entries and batch slots (a ``BatchQueue``), the callers still waiting for an answer.
///
/// Each waiting caller's continuation is held in exactly one place, `waiters`, and leaves it
/// exactly once (answered, expired, cancelled or closed), so it resumes exactly once. A
/// queued entry whose caller is gone is skipped when a batch is taken.
struct IntakeBatchQueue {
    typealias Continuation = CheckedContinuation<InboxInsertResult, any Error>

    /// An entry waiting for a batch.
    struct Queued {
        let id: UInt64
        let entry: InboxEntry
        let deadline: ContinuousClock.Instant
    }

    /// What the caller of `admit` must do next, outside the lock.
    enum Admission {
        /// Answer the caller with this error now.
        case refused(any Error)
        /// Nothing: a running batch slot will take the entry.
        case queued
        /// Start a batch slot's loop (one slot was taken for it).
        case startBatches
        /// Start the sweeper that expires entries waiting too long.
        case startSweeper
    }

    private var queue: BatchQueue<Queued>
    private var waiters: [UInt64: Continuation] = [:]
    private var sweeperRunning = false
    private var nextID: UInt64 = 0

    /// A queue of at most `maximumQueued` entries, stored by at most `maximumBatchesInFlight` batches at once.
    init(maximumQueued: Int, maximumBatchesInFlight: Int) {
        queue = BatchQueue(maximumQueued: maximumQueued, maximumDrains: maximumBatchesInFlight)
    }

    /// Batches being stored now.
    var batchesInFlight: Int { queue.drains }

    /// A fresh id for one caller.
    mutating func allocateID() -> UInt64 {
        nextID += 1
        return nextID
    }

    /// Queues an entry unless the batcher is closed, the queue full or the caller cancelled,
    /// and says whether a batch slot or the sweeper has to be started for it.
    ///
    /// Checked under the same lock as the cancellation handler's removal: either this sees
    /// the cancellation, or the handler finds the waiter registered here.
    mutating func admit(id: UInt64, entry: InboxEntry, continuation: Continuation, deadline: ContinuousClock.Instant) -> Admission {
        guard !Task.isCancelled else { return .refused(CancellationError()) }
        switch queue.admit(Queued(id: id, entry: entry, deadline: deadline)) {
        case .closed:
            return .refused(IntakeBatcherError(.closed))
        case .full:
            return .refused(IntakeBatcherError(.overloaded))
        case .startDrain:
            waiters[id] = continuation
            return .startBatches
        case .queued:
            waiters[id] = continuation
            guard !sweeperRunning else { return .queued }
            sweeperRunning = true
            return .startSweeper
        }
    }

    /// Takes up to `maximumSize` queued entries whose callers still wait, oldest first; when
    /// none is left, gives the calling batch slot back and returns an empty batch.
    mutating func takeBatch(maximumSize: Int) -> [Queued] {
        let waiting = waiters
        return queue.takeBatch(maximumSize: maximumSize) { waiting[$0.id] != nil }
    }

    /// Removes and returns a caller's continuation if it still waits.
    mutating func removeWaiter(_ id: UInt64) -> Continuation? {
        waiters.removeValue(forKey: id)
    }

    /// Removes queued entries past their deadline and returns their callers; also when the
    /// sweeper should look again (nil: the queue is empty and the sweeper stops).
    mutating func removeExpired(now: ContinuousClock.Instant) -> (expired: [Continuation], next: ContinuousClock.Instant?) {
        // Deadlines grow with arrival order, so the expired entries are a prefix.
        let expired = queue.removeFirst { $0.deadline <= now }.compactMap { waiters.removeValue(forKey: $0.id) }
        guard let oldest = queue.first else {
            sweeperRunning = false
            return (expired, nil)
        }
        return (expired, oldest.deadline)
    }

    /// Refuses new entries and returns every queued caller, to be failed.
    mutating func close() -> [Continuation] {
        queue.close()
        return queue.removeAll().compactMap { waiters.removeValue(forKey: $0.id) }
    }
}
