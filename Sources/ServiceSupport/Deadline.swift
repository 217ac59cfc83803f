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
