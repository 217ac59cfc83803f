import Synchronization

/// Which database a `/v1` read goes to: the read replica (`DATABASE_READ_URL`) while it is
/// known to be at most `maxStaleness` behind the primary, else the primary. Until the first
/// check, and whenever the replica cannot be asked, reads go to the primary.
public final class ReplicaRoute: Sendable {
    /// The two places a read can go.
    public enum Target: String, Sendable {
        case primary, replica
    }

    /// How far behind the primary a replica may be and still answer reads.
    public let maxStaleness: Duration
    private let staleness = Mutex<Duration?>(nil)
    private let onRead: @Sendable (Target) -> Void

    /// A route that prefers the replica while it is within `maxStaleness`; `onRead` is told
    /// where each read went (metrics).
    public init(maxStaleness: Duration, onRead: @escaping @Sendable (Target) -> Void = { _ in }) {
        self.maxStaleness = maxStaleness
        self.onRead = onRead
    }

    /// Where reads go now.
    public var current: Target {
        staleness.withLock { $0.map { $0 <= maxStaleness } ?? false } ? .replica : .primary
    }

    /// How far behind the replica was at the last check; nil before the first, or when it
    /// could not be asked.
    public var lastStaleness: Duration? {
        staleness.withLock { $0 }
    }

    /// Records a check's result.
    func record(staleness value: Duration?) {
        staleness.withLock { $0 = value }
    }

    /// Where the next read goes, counted.
    func choose() -> Target {
        let target = current
        onRead(target)
        return target
    }
}
