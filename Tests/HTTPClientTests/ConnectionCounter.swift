import Synchronization

/// Counts TCP connections the test server accepted, from any event-loop thread.
final class ConnectionCounter: Sendable {
    private let count = Atomic<Int>(0)

    /// Records one accepted connection.
    func increment() {
        count.add(1, ordering: .relaxed)
    }

    /// Connections accepted so far.
    var value: Int { count.load(ordering: .relaxed) }
}
