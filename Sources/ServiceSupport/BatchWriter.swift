import Synchronization

/// Writes items handed over from request paths in batches, off those paths: `submit` never
/// waits, one loop writes what was handed over meanwhile, a batch per `write` call.
///
/// Natural batching, no timer (a ``BatchQueue`` with one drain loop): an item handed to an
/// idle writer starts a write at once; items handed over during a write wait for the next.
/// Bounded: an item handed over while `maximumQueued` wait, or after `close()`, is dropped,
/// and so is a batch whose write failed; `onOutcome` counts each.
public final class BatchWriter<Item: Sendable>: Sendable {
    /// What became of items handed over.
    public enum Outcome: String, Sendable, CaseIterable {
        /// Written.
        case written
        /// Not queued: the queue was full or the writer closed.
        case dropped
        /// Their write failed.
        case failed
    }

    private let write: @Sendable ([Item]) async throws -> Void
    private let maximumBatchSize: Int
    private let onOutcome: @Sendable (Outcome, Int, (any Error)?) -> Void
    private let state: Mutex<State>

    private struct State {
        var queue: BatchQueue<Item>
        var flushWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// A writer calling `write` with up to `maximumBatchSize` items at a time, holding at most
    /// `maximumQueued`; `onOutcome` is told how many items each outcome had (and a failed
    /// write's error).
    public init(
        maximumBatchSize: Int = 256, maximumQueued: Int = 4_096,
        onOutcome: @escaping @Sendable (Outcome, Int, (any Error)?) -> Void = { _, _, _ in },
        write: @escaping @Sendable ([Item]) async throws -> Void
    ) {
        self.write = write
        self.maximumBatchSize = max(1, maximumBatchSize)
        self.onOutcome = onOutcome
        state = Mutex(State(queue: BatchQueue(maximumQueued: maximumQueued, maximumDrains: 1)))
    }

    /// Hands `item` over for writing.
    public func submit(_ item: Item) {
        switch state.withLock({ $0.queue.admit(item) }) {
        case .closed, .full: onOutcome(.dropped, 1, nil)
        case .queued: break
        case .startDrain: Task { await self.writeBatches() }
        }
    }

    /// Drops items handed over from now on; those already queued are still written.
    public func close() {
        state.withLock { $0.queue.close() }
    }

    /// Returns once the queue is empty and no write is under way. Call `close()` first for a
    /// flush that ends under load.
    public func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = state.withLock { state in
                guard state.queue.drains > 0 else { return false }
                state.flushWaiters.append(continuation)
                return true
            }
            if !waits { continuation.resume() }
        }
    }

    private func writeBatches() async {
        while true {
            let (batch, waiters) = state.withLock { state in
                let batch = state.queue.takeBatch(maximumSize: maximumBatchSize)
                guard batch.isEmpty else { return (batch, [CheckedContinuation<Void, Never>]()) }
                defer { state.flushWaiters = [] }
                return (batch, state.flushWaiters)
            }
            guard !batch.isEmpty else {
                for waiter in waiters { waiter.resume() }
                return
            }
            do {
                try await write(batch)
                onOutcome(.written, batch.count, nil)
            } catch {
                onOutcome(.failed, batch.count, error)
            }
        }
    }
}
