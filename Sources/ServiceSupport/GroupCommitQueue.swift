/// A group commit's bookkeeping, a pure value guarded by its lock: the waiting jobs and the
/// write slots (a ``BatchQueue``), and the callers still waiting for an answer.
///
/// Each waiting caller's continuation is held in exactly one place, `waiters`, and leaves it
/// exactly once (answered, expired, cancelled or closed), so it resumes exactly once. A
/// waiting job whose caller is gone is left out when a batch is taken.
@usableFromInline
struct GroupCommitQueue<Job, Answer> {
    @usableFromInline
    typealias Continuation = CheckedContinuation<Answer, any Error>

    /// A job waiting for a write.
    @usableFromInline
    struct Queued {
        @usableFromInline
        let id: UInt64
        @usableFromInline
        let job: Job
        /// When its caller stops waiting (nil: never).
        @usableFromInline
        let deadline: ContinuousClock.Instant?

        @inlinable
        init(id: UInt64, job: Job, deadline: ContinuousClock.Instant?) {
            self.id = id
            self.job = job
            self.deadline = deadline
        }
    }

    /// What the caller of `admit` must do next, outside the lock.
    @usableFromInline
    enum Admission {
        /// Answer the caller with this error now.
        case refused(any Error)
        /// Nothing: a running write slot will take the job.
        case queued
        /// Start a write slot's loop (one slot was taken for it).
        case startDrain
        /// Start the sweeper that expires jobs waiting too long.
        case startSweeper
    }

    @usableFromInline
    var queue: BatchQueue<Queued>
    @usableFromInline
    var waiters: [UInt64: Continuation] = [:]
    @usableFromInline
    var sweeperRunning = false
    @usableFromInline
    var nextID: UInt64 = 0

    /// At most `maximumQueued` jobs waiting, written by at most `maximumDrains` loops at once.
    @inlinable
    init(maximumQueued: Int, maximumDrains: Int) {
        queue = BatchQueue(maximumQueued: maximumQueued, maximumDrains: maximumDrains)
    }

    /// Jobs waiting for a write slot.
    @inlinable
    var count: Int { queue.count }

    /// A fresh id for one caller.
    @inlinable
    mutating func allocateID() -> UInt64 {
        nextID += 1
        return nextID
    }

    /// Queues a job unless the queue is closed or full or (when `refusingCancelled`) the
    /// caller is cancelled, and says whether a write slot or the sweeper has to be started.
    ///
    /// Checked under the same lock as the cancellation handler's removal: either this sees
    /// the cancellation, or the handler finds the waiter registered here.
    @inlinable
    mutating func admit(
        id: UInt64, job: Job, continuation: Continuation, deadline: ContinuousClock.Instant?, refusingCancelled: Bool
    ) -> Admission {
        if refusingCancelled && Task.isCancelled { return .refused(CancellationError()) }
        switch queue.admit(Queued(id: id, job: job, deadline: deadline)) {
        case .closed:
            return .refused(GroupCommitRefusal(.closed))
        case .full:
            return .refused(GroupCommitRefusal(.full))
        case .startDrain:
            waiters[id] = continuation
            return .startDrain
        case .queued:
            waiters[id] = continuation
            guard deadline != nil, !sweeperRunning else { return .queued }
            sweeperRunning = true
            return .startSweeper
        }
    }

    /// Takes up to `maximumSize` waiting jobs whose callers still wait, oldest first; when
    /// none is left, gives the calling write slot back and returns an empty batch.
    @inlinable
    mutating func takeBatch(maximumSize: Int) -> [Queued] {
        let waiting = waiters
        return queue.takeBatch(maximumSize: maximumSize) { waiting[$0.id] != nil }
    }

    /// Removes and returns a caller's continuation if it still waits.
    @inlinable
    mutating func removeWaiter(_ id: UInt64) -> Continuation? {
        waiters.removeValue(forKey: id)
    }

    /// Removes waiting jobs past their deadline and returns their callers; also when the
    /// sweeper should look again (nil: nothing waits and the sweeper stops).
    @inlinable
    mutating func removeExpired(now: ContinuousClock.Instant) -> (expired: [Continuation], next: ContinuousClock.Instant?) {
        // One maximum wait for every job: deadlines grow with arrival order, so the expired jobs are a prefix.
        let expired = queue.removeFirst { $0.deadline.map { $0 <= now } ?? false }.compactMap { waiters.removeValue(forKey: $0.id) }
        guard let oldest = queue.first?.deadline else {
            sweeperRunning = false
            return (expired, nil)
        }
        return (expired, oldest)
    }

    /// Refuses new jobs and returns every waiting caller, to be failed.
    @inlinable
    mutating func close() -> [Continuation] {
        queue.close()
        return queue.removeAll().compactMap { waiters.removeValue(forKey: $0.id) }
    }
}
