import Logging
import ServiceSupport
import Store
import Synchronization

/// Stores the answers that reads computed, off the request: a read hands its answer over
/// and responds at once, and one writer stores what was handed over meanwhile, a batch per
/// statement (docs/read-answers.md, "Storing").
///
/// Natural batching, no timer, as in `IntakeBatcher`: an answer handed to an idle writer
/// starts a write at once; answers handed over while a write is under way wait for the
/// next, which takes up to `maximumBatchSize` of them, oldest first (the same ``BatchQueue``
/// as the intake batcher's, with one drain loop). One write at a time, so the writer holds
/// at most one database connection.
///
/// Nothing here can make an answer wrong, only missing:
/// - storing late is safe. An answer carries the stamp its read looked up before it read
///   the facts, so a change since then has raised the version past it, and the late
///   answer is stored unserved;
/// - the queue is bounded. An answer handed over while `maximumQueued` wait, or after
///   `close()`, is dropped, and the next read of its key computes it again. So does a
///   batch whose write failed (a lock held past 100 ms by a notification being applied,
///   the database gone).
public final class AnswerWriter: Sendable {
    /// Limits of the writer.
    public struct Configuration: Sendable {
        /// The most answers one write takes (each kind is one statement).
        public var maximumBatchSize: Int
        /// The most answers waiting for a write; more are dropped.
        public var maximumQueued: Int

        /// Creates a configuration.
        public init(maximumBatchSize: Int = 256, maximumQueued: Int = 4_096) {
            self.maximumBatchSize = max(1, maximumBatchSize)
            self.maximumQueued = max(1, maximumQueued)
        }
    }

    /// What became of answers handed over, for the metrics.
    public enum Outcome: String, Sendable, CaseIterable {
        /// Written.
        case stored
        /// Not queued: the queue was full or the writer closed.
        case dropped
        /// Their write failed.
        case failed
    }

    private let store: AnswerStore
    private let configuration: Configuration
    private let logger: Logger
    private let onOutcome: @Sendable (Outcome, Int) -> Void
    private let state: Mutex<AnswerWriteQueue>

    /// A writer into `store`; `onOutcome` is told how many answers each outcome had.
    public init(
        store: AnswerStore, configuration: Configuration = Configuration(), logger: Logger,
        onOutcome: @escaping @Sendable (Outcome, Int) -> Void = { _, _ in }
    ) {
        self.store = store
        self.configuration = configuration
        state = Mutex(AnswerWriteQueue(maximumQueued: configuration.maximumQueued))
        self.logger = logger
        self.onOutcome = onOutcome
    }

    /// Hands a `GET /v1/subscriptions/{id}` answer over for storing.
    public func submit(_ answer: SubscriptionAnswer) {
        submit(.subscription(answer))
    }

    /// Hands a `GET /v1/subscribers/{id}` answer over for storing.
    public func submit(_ answer: SubscriberAnswer) {
        submit(.subscriber(answer))
    }

    /// Drops answers handed over from now on; the ones already queued are still written.
    public func close() {
        state.withLock { $0.close() }
    }

    /// Returns once the queue is empty and no write is under way: every answer handed over
    /// before the call (and any handed over while it waits) has been written or failed.
    /// Call `close()` first for a flush that ends under load.
    public func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = state.withLock { $0.waitForIdle(continuation) }
            if !waits { continuation.resume() }
        }
    }

    private func submit(_ answer: PendingAnswer) {
        switch state.withLock({ $0.admit(answer) }) {
        case .closed, .full: onOutcome(.dropped, 1)
        case .queued: break
        case .startDrain: Task { await self.writeBatches() }
        }
    }

    /// The writer's loop: takes what is queued and stores it, until the queue is empty.
    private func writeBatches() async {
        while true {
            switch state.withLock({ $0.takeBatch(maximumSize: configuration.maximumBatchSize) }) {
            case .write(let subscriptions, let subscribers):
                await write(subscriptions) { try await store.store($0) }
                await write(subscribers) { try await store.store($0) }
            case .idle(let flushWaiters):
                for waiter in flushWaiters { waiter.resume() }
                return
            }
        }
    }

    private func write<Answer>(_ answers: [Answer], _ store: ([Answer]) async throws -> Void) async {
        guard !answers.isEmpty else { return }
        do {
            try await store(answers)
            onOutcome(.stored, answers.count)
        } catch {
            onOutcome(.failed, answers.count)
            logger.debug("read answers not stored", metadata: [LogKey.error: "\(error)", LogKey.batchSize: "\(answers.count)"])
        }
    }
}

/// An answer waiting for `AnswerWriter`.
enum PendingAnswer: Sendable {
    case subscription(SubscriptionAnswer)
    case subscriber(SubscriberAnswer)
}

/// The answers waiting for `AnswerWriter` (a ``BatchQueue`` with one drain loop), and the
/// flushes waiting for the loop to end.
struct AnswerWriteQueue {
    enum Next {
        /// Store these.
        case write(subscriptions: [SubscriptionAnswer], subscribers: [SubscriberAnswer])
        /// The queue is empty and the loop ends; resume these flushes.
        case idle([CheckedContinuation<Void, Never>])
    }

    private var queue: BatchQueue<PendingAnswer>
    private var flushWaiters: [CheckedContinuation<Void, Never>] = []

    init(maximumQueued: Int) {
        queue = BatchQueue(maximumQueued: maximumQueued, maximumDrains: 1)
    }

    /// Whether the writer's loop runs; it ends only with an empty queue.
    var writing: Bool { queue.drains > 0 }

    mutating func admit(_ answer: PendingAnswer) -> BatchQueue<PendingAnswer>.Admission {
        queue.admit(answer)
    }

    /// Drops answers handed over from now on.
    mutating func close() {
        queue.close()
    }

    /// Resumes `continuation` when the loop ends; false when no loop runs (resume it now).
    mutating func waitForIdle(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
        guard writing else { return false }
        flushWaiters.append(continuation)
        return true
    }

    /// The next batch, up to `maximumSize` answers in arrival order, split by kind; when the
    /// queue is empty, the loop ends and so do the flushes waiting for it.
    mutating func takeBatch(maximumSize: Int) -> Next {
        let batch = queue.takeBatch(maximumSize: maximumSize)
        guard !batch.isEmpty else {
            defer { flushWaiters = [] }
            return .idle(flushWaiters)
        }
        var subscriptions: [SubscriptionAnswer] = []
        var subscribers: [SubscriberAnswer] = []
        for answer in batch {
            switch answer {
            case .subscription(let answer): subscriptions.append(answer)
            case .subscriber(let answer): subscribers.append(answer)
            }
        }
        return .write(subscriptions: subscriptions, subscribers: subscribers)
    }
}
