import Synchronization

/// Group commit: jobs that become ready while earlier ones are being written are written
/// together, by one call of `write` (one transaction or statement), and each caller gets its
/// job's answer once that call returned.
///
/// Natural batching, no timer: a job that finds a free slot is written at once (an idle
/// system adds no latency); while `maximumInFlight` writes are under way, jobs wait, and each
/// slot that comes free takes up to `maximumBatchSize` of them, oldest first. At most
/// `maximumQueued` jobs wait (more are refused, ``GroupCommitRefusal/Code/full``), and with a
/// `maximumWait` none waits longer (``GroupCommitRefusal/Code/timedOut``); a write, once
/// started, is bounded by whatever bounds `write`.
///
/// A batch whose write fails is assumed to have written nothing (a transaction rolled back).
/// When `writesAloneAfter` says so for its error (by default, always), its jobs are then
/// written one call each, in order, so each caller gets the answer its job would have had
/// alone; otherwise every caller of the batch gets the error (the database is down: writing
/// each alone would fail the same way, one timeout after another).
///
/// Its work per job is `@inlinable`, so each user's module gets it specialized for its job
/// type: generic and unspecialized, the bookkeeping (metadata lookups, a key path
/// instantiated per batch) took 2.5 % of subscriptiond's samples under signed intake, against
/// 1 % for intake's own queue before (perf, docs/performance.md "Measuring a change").
public final class GroupCommit<Job: Sendable, Answer: Sendable>: Sendable {
    /// What a caller whose task is cancelled gets.
    public enum Cancellation: Sendable, Equatable {
        /// Its job's answer, once written: cancellation changes nothing.
        case waitsForWrite
        /// `CancellationError` at once; its job is left out unless a write took it already
        /// (which then still writes it).
        case answersAtOnce
    }

    /// A write that answered fewer jobs than it was given.
    @usableFromInline
    struct MissingAnswer: Error, CustomStringConvertible {
        @usableFromInline
        init() {}

        @usableFromInline
        var description: String { "a group commit's write answered fewer jobs than it was given" }
    }

    @usableFromInline
    typealias Queue = GroupCommitQueue<Job, Answer>

    @usableFromInline
    let maximumBatchSize: Int
    @usableFromInline
    let maximumWait: Duration?
    @usableFromInline
    let cancellation: Cancellation
    @usableFromInline
    let writesAloneAfter: @Sendable (any Error) -> Bool
    @usableFromInline
    let afterWrite: @Sendable ([Answer]) async -> Void
    @usableFromInline
    let state: Mutex<Queue>
    @usableFromInline
    let write: @Sendable ([Job]) async throws -> [Answer]

    /// A group commit with at most `maximumInFlight` calls of `write` at once, each of at most
    /// `maximumBatchSize` jobs, and at most `maximumQueued` jobs waiting, none longer than
    /// `maximumWait` (nil: no limit).
    ///
    /// - Parameters:
    ///   - writesAloneAfter: whether a batch that failed with this error is written again one job at a time.
    ///   - afterWrite: runs after the callers of writes that succeeded have their answers (once
    ///     per batch, or once for the jobs of a failed batch written alone), with their answers.
    ///   - write: writes all of its jobs or none, and answers each, in order.
    public init(
        maximumBatchSize: Int, maximumInFlight: Int, maximumQueued: Int, maximumWait: Duration? = nil,
        cancellation: Cancellation = .waitsForWrite, writesAloneAfter: @escaping @Sendable (any Error) -> Bool = { _ in true },
        afterWrite: @escaping @Sendable ([Answer]) async -> Void = { _ in },
        write: @escaping @Sendable ([Job]) async throws -> [Answer]
    ) {
        self.maximumBatchSize = max(1, maximumBatchSize)
        self.maximumWait = maximumWait
        self.cancellation = cancellation
        self.writesAloneAfter = writesAloneAfter
        self.afterWrite = afterWrite
        state = Mutex(Queue(maximumQueued: maximumQueued, maximumDrains: maximumInFlight))
        self.write = write
    }

    /// Jobs waiting for a slot.
    var waiting: Int { state.withLock { $0.count } }

    /// Writes `job` with the next batch and returns its answer once written; throws what
    /// writing it threw, a ``GroupCommitRefusal``, or (``Cancellation/answersAtOnce``)
    /// `CancellationError`.
    @inlinable
    public func submit(_ job: Job) async throws -> Answer {
        guard cancellation == .answersAtOnce else {
            return try await enqueue(job, id: state.withLock { $0.allocateID() })
        }
        try Task.checkCancellation()
        let id = state.withLock { $0.allocateID() }
        return try await withTaskCancellationHandler {
            try await enqueue(job, id: id)
        } onCancel: {
            answer(id, with: .failure(CancellationError()))
        }
    }

    /// Refuses new jobs and answers the waiting ones ``GroupCommitRefusal/Code/closed``; writes under way finish.
    @inlinable
    public func close() {
        let continuations = state.withLock { $0.close() }
        for continuation in continuations { continuation.resume(throwing: GroupCommitRefusal(.closed)) }
    }

    @inlinable
    func enqueue(_ job: Job, id: UInt64) async throws -> Answer {
        try await withCheckedThrowingContinuation { (continuation: Queue.Continuation) in
            let admission = state.withLock { queue in
                queue.admit(
                    id: id, job: job, continuation: continuation, deadline: maximumWait.map { ContinuousClock.now + $0 },
                    refusingCancelled: cancellation == .answersAtOnce)
            }
            switch admission {
            case .refused(let error): continuation.resume(throwing: error)
            case .queued: break
            case .startDrain: Task { await self.drain() }
            case .startSweeper: Task { await self.sweepExpired() }
            }
        }
    }

    /// One slot's loop: writes what waits, a batch at a time, until nothing does.
    @inlinable
    func drain() async {
        while true {
            let batch = state.withLock { $0.takeBatch(maximumSize: maximumBatchSize) }
            guard !batch.isEmpty else { return }
            await commit(batch)
        }
    }

    @inlinable
    func commit(_ batch: [Queue.Queued]) async {
        do {
            let answers = try await write(batch.map { $0.job })
            answer(batch.map { $0.id }, with: answers)
            await afterWrite(answers)
        } catch  where batch.count > 1 && writesAloneAfter(error) {
            var written: [Answer] = []
            for queued in batch {
                do {
                    let answers = try await write([queued.job])
                    answer([queued.id], with: answers)
                    written += answers
                } catch {
                    answer(queued.id, with: .failure(error))
                }
            }
            if !written.isEmpty { await afterWrite(written) }
        } catch {
            let ids = batch.map { $0.id }
            let continuations = state.withLock { queue in ids.compactMap { queue.removeWaiter($0) } }
            for continuation in continuations { continuation.resume(throwing: error) }
        }
    }

    /// Answers the callers of `ids` still waiting, each with its answer, in order.
    @inlinable
    func answer(_ ids: [UInt64], with answers: [Answer]) {
        let continuations = state.withLock { queue in ids.map { queue.removeWaiter($0) } }
        for (index, continuation) in continuations.enumerated() {
            guard let continuation else { continue }
            guard index < answers.count else {
                continuation.resume(throwing: MissingAnswer())
                continue
            }
            continuation.resume(returning: answers[index])
        }
    }

    @inlinable
    func answer(_ id: UInt64, with result: Result<Answer, any Error>) {
        state.withLock { $0.removeWaiter(id) }?.resume(with: result)
    }

    /// Answers waiting jobs whose wait passed `maximumWait`, until nothing waits.
    @inlinable
    func sweepExpired() async {
        while true {
            let (expired, next) = state.withLock { $0.removeExpired(now: .now) }
            for continuation in expired { continuation.resume(throwing: GroupCommitRefusal(.timedOut)) }
            guard let next else { return }
            try? await Task.sleep(until: next, clock: .continuous)
        }
    }
}

extension GroupCommit where Answer == Void {
    /// A group commit of jobs that answer nothing but success or an error (see the designated initialiser).
    public convenience init(
        maximumBatchSize: Int, maximumInFlight: Int, maximumQueued: Int, maximumWait: Duration? = nil,
        cancellation: Cancellation = .waitsForWrite, writesAloneAfter: @escaping @Sendable (any Error) -> Bool = { _ in true },
        write: @escaping @Sendable ([Job]) async throws -> Void
    ) {
        self.init(
            maximumBatchSize: maximumBatchSize, maximumInFlight: maximumInFlight, maximumQueued: maximumQueued, maximumWait: maximumWait,
            cancellation: cancellation, writesAloneAfter: writesAloneAfter
        ) { jobs in
            try await write(jobs)
            return Array(repeating: (), count: jobs.count)
        }
    }
}
