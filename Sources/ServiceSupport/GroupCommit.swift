import Synchronization

/// Group commit: jobs that become ready while earlier ones are being written are written
/// together, by one call of `write` (one transaction), and each caller is answered once
/// that call returned.
///
/// Natural batching, no timer: a job that finds a free slot is written at once (an idle
/// system adds no latency); while `maximumInFlight` writes are under way, jobs wait, and each
/// slot that comes free takes up to `maximumBatchSize` of them.
///
/// A batch whose write fails is assumed to have written nothing (a transaction rolled back):
/// its jobs are then written one call each, in order, so each caller gets the result its
/// job would have had alone.
public final class GroupCommit<Job: Sendable>: Sendable {
    /// Thrown when `maximumQueued` jobs wait already.
    public struct Full: Error, CustomStringConvertible {
        public var description: String { "too many jobs wait for a group commit" }
    }

    private struct Waiting: Sendable {
        let job: Job
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let maximumBatchSize: Int
    private let queue: Mutex<BatchQueue<Waiting>>
    private let write: @Sendable ([Job]) async throws -> Void

    /// A group commit with at most `maximumInFlight` calls of `write` at once, each of at most
    /// `maximumBatchSize` jobs, and at most `maximumQueued` jobs waiting. `write` must write
    /// all of its jobs or none.
    public init(
        maximumBatchSize: Int, maximumInFlight: Int, maximumQueued: Int, write: @escaping @Sendable ([Job]) async throws -> Void
    ) {
        self.maximumBatchSize = max(1, maximumBatchSize)
        queue = Mutex(BatchQueue(maximumQueued: maximumQueued, maximumDrains: maximumInFlight))
        self.write = write
    }

    /// Jobs waiting for a slot.
    var waiting: Int { queue.withLock { $0.count } }

    /// Writes `job` with the next batch; returns once it is written, or throws what writing it
    /// alone threw (or `Full`).
    public func submit(_ job: Job) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            switch queue.withLock({ $0.admit(Waiting(job: job, continuation: continuation)) }) {
            case .startDrain: Task { await drain() }
            case .queued: break
            case .full, .closed: continuation.resume(throwing: Full())
            }
        }
    }

    /// One slot's loop: writes what waits, a batch at a time, until nothing does.
    private func drain() async {
        while true {
            let batch = queue.withLock { $0.takeBatch(maximumSize: maximumBatchSize) }
            guard !batch.isEmpty else { return }
            await commit(batch)
        }
    }

    private func commit(_ batch: [Waiting]) async {
        if batch.count > 1, (try? await write(batch.map(\.job))) != nil {
            for waiting in batch { waiting.continuation.resume() }
            return
        }
        // Alone, or after a batch that wrote nothing: each in a call of its own.
        for waiting in batch {
            do {
                try await write([waiting.job])
                waiting.continuation.resume()
            } catch {
                waiting.continuation.resume(throwing: error)
            }
        }
    }
}
