import Synchronization

/// What other threads hand the multi loop: new requests, cancellations and shutdown.
///
/// Every post wakes the loop with `curl_multi_wakeup` while holding the lock the loop
/// closes the mailbox with, so no wakeup can reach a multi handle after its cleanup, and
/// whatever was posted before the close is still seen (and failed) by the loop.
final class CurlMailbox: Sendable {
    /// Everything posted since the loop last looked.
    struct Delivery {
        var submitted: [CurlPendingRequest] = []
        var cancelled: [CurlPendingRequest] = []
        /// `shutdown()` was called: this is the last delivery.
        var isShuttingDown = false
    }

    private struct State {
        var delivery = Delivery()
        var isClosed = false
    }

    private let state = Mutex(State())
    private let multi: CurlMultiHandle

    init(multi: CurlMultiHandle) {
        self.multi = multi
    }

    /// Hands a request to the loop; false when the client is shut down (nothing was sent).
    func submit(_ request: CurlPendingRequest) -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            state.delivery.submitted.append(request)
            multi.wakeup()
            return true
        }
    }

    /// Asks the loop to stop a cancelled request's transfer.
    func cancel(_ request: CurlPendingRequest) {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.delivery.cancelled.append(request)
            multi.wakeup()
        }
    }

    /// Asks the loop to fail everything pending and stop.
    func requestShutdown() {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.delivery.isShuttingDown = true
            multi.wakeup()
        }
    }

    /// Everything posted since the last call; closes the mailbox when it carries the shutdown.
    func take() -> Delivery {
        state.withLock { state in
            var taken = Delivery()
            swap(&taken, &state.delivery)
            if taken.isShuttingDown { state.isClosed = true }
            return taken
        }
    }
}
