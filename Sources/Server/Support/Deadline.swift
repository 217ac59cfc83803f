import Synchronization

/// Waits for an operation at most `limit`: its result, or nil when the time ran out first.
///
/// The operation is not cancelled when the time runs out — an upstream transfer on a
/// blocking thread cannot be interrupted — it finishes (within its own timeout) on its own
/// and its result is dropped. Use it where the caller has a fallback, such as queueing.
func firstResult<T: Sendable>(within limit: Duration, _ operation: @escaping @Sendable () async -> T) async -> T? {
    let race = Race<T>()
    return await withCheckedContinuation { continuation in
        race.start(continuation)
        Task { race.finish(await operation()) }
        Task {
            try? await Task.sleep(for: limit)
            race.finish(nil)
        }
    }
}

/// Resumes its continuation exactly once, with whichever side finishes first.
private final class Race<T: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<T?, Never>?>(nil)

    func start(_ continuation: CheckedContinuation<T?, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    func finish(_ value: T?) {
        let waiting = continuation.withLock { current -> CheckedContinuation<T?, Never>? in
            defer { current = nil }
            return current
        }
        waiting?.resume(returning: value)
    }
}
