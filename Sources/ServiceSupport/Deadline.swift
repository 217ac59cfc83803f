import Synchronization

/// Runs `operation` for at most `limit`: its result, or nil when the time ran out first.
///
/// The loser is cancelled: when the time runs out, the operation sees cancellation (an
/// upstream transfer through `CurlHTTPClient` stops, a Retry-After wait ends) and this
/// returns once it has wound down, so no abandoned call keeps a transfer slot or a rate
/// limiter's token. Use it around work that is safe to stop part-way, such as upstream
/// verification before anything is written.
public func firstResult<T: Sendable>(within limit: Duration, _ operation: @escaping @Sendable () async -> T) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await operation() }
        group.addTask {
            try? await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        return await group.next() ?? nil
    }
}

/// Runs `operation` and returns its result, or nil as soon as `limit` passes, without waiting
/// for it to wind down: the operation is cancelled and finishes in the background. For an
/// answer that is worth nothing late (the App Store's real-time retention request shows its
/// default message after a timeout), where `firstResult(within:_:)` would wait for a stuck
/// database read to notice its cancellation. The operation's own waits must still be bounded.
public func resultOrNil<T: Sendable>(within limit: Duration, _ operation: @escaping @Sendable () async -> T) async -> T? {
    let settled = FirstClaim()
    return await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        let timer = Task { try await Task.sleep(for: limit) }
        let work = Task {
            let result = await operation()
            timer.cancel()
            if settled.claim() { continuation.resume(returning: result) }
        }
        Task {
            // A cancelled timer (the work finished first) throws: nothing to do.
            guard (try? await timer.value) != nil, settled.claim() else { return }
            continuation.resume(returning: nil)
            work.cancel()
        }
    }
}

/// True for the first caller of `claim()` only: a continuation resumed once by whichever of
/// two tasks comes first.
private final class FirstClaim: Sendable {
    private let claimed = Mutex(false)

    func claim() -> Bool {
        claimed.withLock { done in
            defer { done = true }
            return !done
        }
    }
}
