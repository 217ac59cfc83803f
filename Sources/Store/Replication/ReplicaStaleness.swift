/// How old a replica's view is, in time, judged from positions in the primary's WAL: the
/// primary's position is sampled now and then, and a replica that has replayed past the
/// position sampled at instant t holds every write committed before t. Its staleness is at
/// most the time since the newest sample it has replayed past. Pure: the caller samples.
///
/// Unlike the replica's own `now() - pg_last_xact_replay_timestamp()`, this also sees a
/// replica whose WAL receiver stopped (it reports no lag while the primary moves on).
public struct ReplicaStaleness: Sendable {
    /// The primary's positions, oldest first.
    private var samples: [(at: ContinuousClock.Instant, position: UInt64)] = []
    /// How many samples are kept: beyond the oldest, staleness is only known to be at least its age.
    private let capacity: Int

    /// A tracker keeping the last `capacity` samples of the primary.
    public init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
    }

    /// Records the primary's WAL `position` at `instant` (samples come in time order).
    public mutating func recordPrimary(_ position: UInt64, at instant: ContinuousClock.Instant) {
        samples.append((instant, position))
        if samples.count > capacity { samples.removeFirst(samples.count - capacity) }
    }

    /// The replica's staleness at `now` when it has replayed the WAL up to `replayed`: the
    /// time since the newest sample at or below it, or, when it has replayed none of them, at
    /// least the age of the oldest (returned as that age). Nil before any sample.
    public func staleness(replayed: UInt64, now: ContinuousClock.Instant) -> Duration? {
        guard let oldest = samples.first else { return nil }
        guard let reached = samples.last(where: { $0.position <= replayed }) else { return now - oldest.at }
        return max(.zero, now - reached.at)
    }
}
