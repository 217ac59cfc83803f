import Synchronization
import Testing

@testable import ServiceSupport

@Suite("Group commit")
struct GroupCommitTests {
    /// Records every call of `write`, and holds the first one until `release` is called.
    final class Writes: Sendable {
        private let calls = Mutex<[[Int]]>([])
        private let held = Mutex<CheckedContinuation<Void, Never>?>(nil)
        private let failing: Set<Int>

        init(failing: Set<Int> = []) {
            self.failing = failing
        }

        var recorded: [[Int]] { calls.withLock { $0 } }

        func write(_ jobs: [Int], holdFirst: Bool) async throws {
            let isFirst = calls.withLock { calls in
                calls.append(jobs)
                return calls.count == 1
            }
            if holdFirst && isFirst {
                await withCheckedContinuation { continuation in held.withLock { $0 = continuation } }
            }
            if !failing.isDisjoint(with: jobs) { throw Failed() }
        }

        func release() async {
            while true {
                if let continuation = held.withLock({ $0.take() }) {
                    continuation.resume()
                    return
                }
                await Task.yield()
            }
        }
    }

    struct Failed: Error {}

    /// Whether each job's caller saw success.
    final class Outcomes: Sendable {
        private let byJob = Mutex<[Int: Bool]>([:])
        var recorded: [Int: Bool] { byJob.withLock { $0 } }
        func record(_ job: Int, succeeded: Bool) { byJob.withLock { $0[job] = succeeded } }
    }

    @Test("a job alone is written at once, by itself")
    func alone() async throws {
        let writes = Writes()
        let commit = GroupCommit<Int>(maximumBatchSize: 8, maximumInFlight: 1, maximumQueued: 100) {
            try await writes.write($0, holdFirst: false)
        }
        try await commit.submit(1)
        try await commit.submit(2)
        #expect(writes.recorded == [[1], [2]])
    }

    /// Submits job 0, whose write is held, then each of `queued` in a task of its own; once
    /// they all wait, runs `whileHeld`, releases the held write, and returns when every caller
    /// has its answer, with whether each (0 included) succeeded.
    private static func withFirstWriteHeld(
        _ commit: GroupCommit<Int>, _ writes: Writes, queued: [Int], whileHeld: () async -> Void = {}
    ) async -> [Int: Bool] {
        let outcomes = Outcomes()
        await withTaskGroup(of: Void.self) { group in
            for job in [0] + queued {
                group.addTask { outcomes.record(job, succeeded: (try? await commit.submit(job)) != nil) }
                // The first write is held: everything submitted after it waits for the slot.
                if job == 0 {
                    while writes.recorded.isEmpty { await Task.yield() }
                }
            }
            while commit.waiting < queued.count { await Task.yield() }
            await whileHeld()
            await writes.release()
        }
        return outcomes.recorded
    }

    @Test("jobs that arrive while a write is under way are written together, at most the batch size at a time")
    func batches() async throws {
        let writes = Writes()
        let commit = GroupCommit<Int>(maximumBatchSize: 3, maximumInFlight: 1, maximumQueued: 100) {
            try await writes.write($0, holdFirst: true)
        }
        let outcomes = await Self.withFirstWriteHeld(commit, writes, queued: Array(1...5))
        #expect(outcomes == Dictionary(uniqueKeysWithValues: (0...5).map { ($0, true) }))
        let recorded = writes.recorded
        #expect(recorded.first == [0])
        #expect(recorded.dropFirst().map(\.count) == [3, 2])
        #expect(Set(recorded.joined()) == Set(0...5))
    }

    @Test("a batch whose write fails is written again one job at a time: only the failing job's caller sees the error")
    func failureIsolated() async throws {
        let writes = Writes(failing: [3])
        let commit = GroupCommit<Int>(maximumBatchSize: 8, maximumInFlight: 1, maximumQueued: 100) {
            try await writes.write($0, holdFirst: true)
        }
        let outcomes = await Self.withFirstWriteHeld(commit, writes, queued: Array(1...4))
        #expect(outcomes == [0: true, 1: true, 2: true, 3: false, 4: true])
        let recorded = writes.recorded
        #expect(recorded.count == 6)  // the held one, the batch of four, then the four alone
        #expect(recorded[1].sorted() == [1, 2, 3, 4])
        #expect(Array(recorded[2...]).allSatisfy { $0.count == 1 })
    }

    @Test("a full queue refuses at once")
    func full() async throws {
        let writes = Writes()
        let commit = GroupCommit<Int>(maximumBatchSize: 8, maximumInFlight: 1, maximumQueued: 1) {
            try await writes.write($0, holdFirst: true)
        }
        let outcomes = await Self.withFirstWriteHeld(commit, writes, queued: [1]) {
            await #expect(throws: GroupCommit<Int>.Full.self) { try await commit.submit(2) }
        }
        #expect(outcomes == [0: true, 1: true])
        #expect(writes.recorded == [[0], [1]])
    }
}
