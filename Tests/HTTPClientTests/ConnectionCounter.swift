import Synchronization

/// Counts TCP connections the test server accepted, open now and open at once at most,
/// from any event-loop thread.
final class ConnectionCounter: Sendable {
    private struct Counts {
        var accepted = 0
        var open = 0
        var peakOpen = 0
    }

    private let counts = Mutex(Counts())

    /// Records one accepted connection.
    func opened() {
        counts.withLock { counts in
            counts.accepted += 1
            counts.open += 1
            counts.peakOpen = max(counts.peakOpen, counts.open)
        }
    }

    /// Records that an accepted connection closed.
    func closed() {
        counts.withLock { $0.open -= 1 }
    }

    /// Connections accepted so far.
    var value: Int { counts.withLock { $0.accepted } }

    /// Connections open right now.
    var open: Int { counts.withLock { $0.open } }

    /// The most connections that were open at the same time.
    var peakOpen: Int { counts.withLock { $0.peakOpen } }
}
