import Synchronization

/// Idle easy handles, kept so a busy client does not create and free one per request.
///
/// Each transfer leases one handle exclusively and returns it when done. The connections
/// themselves are in the multi handle's shared cache, whichever handle asks next.
final class CurlHandlePool: Sendable {
    private struct State {
        var idle: [CurlEasyHandle] = []
        var isClosed = false
    }

    private let state = Mutex(State())
    /// More idle handles than concurrent transfers can never be in use at once.
    private let maxIdle: Int

    init(maxIdle: Int) {
        self.maxIdle = maxIdle
    }

    /// An idle handle, or a new one when none is idle.
    func lease() throws(HTTPClientError) -> CurlEasyHandle {
        if let handle = state.withLock({ $0.idle.popLast() }) {
            return handle
        }
        guard let handle = CurlEasyHandle() else {
            throw HTTPClientError(kind: .transport, curlCode: nil, detail: "curl_easy_init failed")
        }
        return handle
    }

    /// Takes a handle back; it is freed instead when the pool is full or closed.
    func release(_ handle: CurlEasyHandle) {
        state.withLock { state in
            guard !state.isClosed, state.idle.count < maxIdle else { return }
            state.idle.append(handle)
        }
        // A handle not kept is freed when the caller drops it: outside the lock, because
        // `curl_easy_cleanup` may block while it closes connections.
    }

    /// Frees every idle handle, closing their connections; later releases free theirs too.
    func close() {
        let idle = state.withLock { state in
            state.isClosed = true
            var taken: [CurlEasyHandle] = []
            swap(&taken, &state.idle)
            return taken
        }
        // Dropped here, outside the lock, for the same reason as in `release`.
        withExtendedLifetime(idle) {}
    }
}
