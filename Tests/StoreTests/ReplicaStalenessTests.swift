import Store
import Testing

/// How stale a replica is, from the primary's sampled WAL positions and how far it replayed.
@Suite("replica staleness from WAL positions")
struct ReplicaStalenessTests {
    let start = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    @Test func nothingIsKnownBeforeTheFirstSample() {
        #expect(ReplicaStaleness().staleness(replayed: 100, now: at(0)) == nil)
    }

    @Test func aReplicaPastTheNewestSampleIsAsOldAsThatSample() {
        var tracker = ReplicaStaleness()
        tracker.recordPrimary(100, at: at(0))
        tracker.recordPrimary(200, at: at(200))
        #expect(tracker.staleness(replayed: 200, now: at(201)) == .milliseconds(1))
        #expect(tracker.staleness(replayed: 250, now: at(210)) == .milliseconds(10))
    }

    @Test func aReplicaBehindIsAsOldAsTheNewestSampleItHasReplayedPast() {
        var tracker = ReplicaStaleness()
        for (index, position) in [100, 200, 300, 400].enumerated() { tracker.recordPrimary(UInt64(position), at: at(index * 200)) }
        // It holds what was written up to the second sample (200 ms), not the third.
        #expect(tracker.staleness(replayed: 250, now: at(700)) == .milliseconds(500))
        // A primary that writes nothing more leaves a caught-up replica fresh.
        #expect(tracker.staleness(replayed: 400, now: at(601)) == .milliseconds(1))
    }

    @Test func aReplicaBehindEveryKeptSampleIsAtLeastAsOldAsTheOldest() {
        var tracker = ReplicaStaleness(capacity: 3)
        for (index, position) in [100, 200, 300, 400, 500].enumerated() { tracker.recordPrimary(UInt64(position), at: at(index * 100)) }
        // Samples 100 and 200 were dropped: the oldest kept is 300, at 200 ms.
        #expect(tracker.staleness(replayed: 150, now: at(1_000)) == .milliseconds(800))
    }

    @Test func aStoppedReplicaGrowsOlderWhileThePrimaryMovesOn() {
        var tracker = ReplicaStaleness()
        tracker.recordPrimary(100, at: at(0))
        #expect(tracker.staleness(replayed: 100, now: at(0)) == .zero)
        tracker.recordPrimary(150, at: at(1_000))
        tracker.recordPrimary(150, at: at(2_000))
        #expect(tracker.staleness(replayed: 100, now: at(2_000)) == .seconds(2))
    }
}
