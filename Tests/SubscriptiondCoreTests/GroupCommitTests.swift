import Synchronization
import Testing

@testable import SubscriptiondCore

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

    @Test("jobs that arrive while a write is under way are written together, at most the batch size at a time")
    func batches() async throws {
        let writes = Writes()
        let commit = GroupCommit<Int>(maximumBatchSize: 3, maximumInFlight: 1, maximumQueued: 100) {
            try await writes.write($0, holdFirst: true)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await commit.submit(0) }
            // The first write is held: everything submitted now waits for the slot.
            while writes.recorded.isEmpty { await Task.yield() }
            for job in 1...5 {
                group.addTask { try await commit.submit(job) }
            }
            while commit.waiting < 5 { await Task.yield() }
            await writes.release()
            try await group.waitForAll()
        }
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
        let outcomes = Outcomes()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { _ = try? await commit.submit(0) }
            while writes.recorded.isEmpty { await Task.yield() }
            for job in 1...4 {
                group.addTask {
                    outcomes.record(job, succeeded: (try? await commit.submit(job)) != nil)
                }
            }
            while commit.waiting < 4 { await Task.yield() }
            await writes.release()
        }
        #expect(outcomes.recorded == [1: true, 2: true, 3: false, 4: true])
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
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await commit.submit(0) }
            while writes.recorded.isEmpty { await Task.yield() }
            group.addTask { try await commit.submit(1) }
            while commit.waiting < 1 { await Task.yield() }
            await #expect(throws: GroupCommit<Int>.Full.self) { try await commit.submit(2) }
            await writes.release()
            try await group.waitForAll()
        }
        #expect(writes.recorded == [[0], [1]])
    }
}
