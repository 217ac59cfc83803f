import Synchronization

/// One request from `execute` until its caller has an answer: the request, its deadline,
/// and the caller's continuation, resumed exactly once whoever gets there first — the
/// multi loop (response, failure, timeout, shutdown) or the caller's task cancellation.
final class CurlPendingRequest: Sendable {
    private enum State {
        /// Created; the continuation is not attached yet.
        case created
        /// Waiting for an answer.
        case attached(CheckedContinuation<HTTPResponse, any Error>)
        /// The task was cancelled before the continuation was attached.
        case cancelledEarly
        /// The caller has its answer.
        case finished
    }

    /// What to send.
    let request: HTTPRequest
    /// When the whole exchange must be over, queueing included.
    let deadline: ContinuousClock.Instant
    private let state = Mutex(State.created)

    /// Creates a request whose timeout starts now.
    init(request: HTTPRequest, startedAt start: ContinuousClock.Instant) {
        self.request = request
        // Clamped so an absurd timeout cannot overflow the clock's arithmetic.
        self.deadline = start + min(max(request.timeout, .zero), .seconds(86_400 * 365))
    }

    /// Keeps the caller's continuation. Returns false, having resumed it with
    /// `CancellationError`, when the task was cancelled already: then nothing is sent.
    func attach(_ continuation: CheckedContinuation<HTTPResponse, any Error>) -> Bool {
        let cancelled = state.withLock { state in
            guard case .created = state else {
                state = .finished
                return true
            }
            state = .attached(continuation)
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// Gives the caller its answer, unless it already has one.
    func finish(_ result: Result<HTTPResponse, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<HTTPResponse, any Error>? in
            guard case .attached(let continuation) = state else {
                if case .created = state { state = .finished }
                return nil
            }
            state = .finished
            return continuation
        }
        continuation?.resume(with: result)
    }

    /// The caller's task was cancelled: it gets `CancellationError` now, and the loop
    /// stops the transfer when it next looks at its mailbox.
    func cancel() {
        let continuation = state.withLock { state -> CheckedContinuation<HTTPResponse, any Error>? in
            switch state {
            case .created:
                state = .cancelledEarly
                return nil
            case .attached(let continuation):
                state = .finished
                return continuation
            case .cancelledEarly, .finished:
                return nil
            }
        }
        continuation?.resume(throwing: CancellationError())
    }

    /// Whether the caller has its answer (or gave up), so the transfer need not run.
    var isFinished: Bool {
        state.withLock { state in
            switch state {
            case .created, .attached: false
            case .cancelledEarly, .finished: true
            }
        }
    }
}
