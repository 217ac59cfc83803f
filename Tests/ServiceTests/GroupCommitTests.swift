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

    /// A value tasks add to.
    final class Shared<Value: Sendable>: Sendable {
        private let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
        var current: Value { value.withLock { $0 } }
        func update(_ change: (inout Value) -> Void) { value.withLock { change(&$0) } }
    }

    /// Whether each job's caller saw success, and what the others saw.
    final class Outcomes: Sendable {
        private let byJob = Mutex<[Int: Bool]>([:])
        private let errors = Mutex<[Int: any Error]>([:])
        var recorded: [Int: Bool] { byJob.withLock { $0 } }
        var failures: [Int: any Error] { errors.withLock { $0 } }
        func record(_ job: Int, succeeded: Bool) { byJob.withLock { $0[job] = succeeded } }
        func record(_ job: Int, failure: any Error) {
            record(job, succeeded: false)
            errors.withLock { $0[job] = failure }
        }
    }

    @Test("a job alone is written at once, by itself")
    func alone() async throws {
        let writes = Writes()
        let commit = GroupCommit<Int, Void>(maximumBatchSize: 8, maximumInFlight: 1, maximumQueued: 100) {
            try await writes.write($0, holdFirst: false)
        }
        try await commit.submit(1)
        try await commit.submit(2)
        #expect(writes.recorded == [[1], [2]])
    }

    /// Submits job 0, whose write is held, then each of `queued` in a task of its own; once
    /// they all wait, runs `whileHeld`, releases the held write, and returns when every caller
    /// has its answer, with whether each (0 included) succeeded.
    private static func withFirstWriteHeld<Answer>(
        _ commit: GroupCommit<Int, Answer>, _ writes: Writes, queued: [Int], whileHeld: () async -> Void = {}
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
        let commit = GroupCommit<Int, Void>(maximumBatchSize: 3, maximumInFlight: 1, maximumQueued: 100) {
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
        let commit = GroupCommit<Int, Void>(maximumBatchSize: 8, maximumInFlight: 1, maximumQueued: 100) {
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
        let commit = GroupCommit<Int, Void>(maximumBatchSize: 8, maximumInFlight: 1, maximumQueued: 1) {
            try await writes.write($0, holdFirst: true)
        }
        let outcomes = await Self.withFirstWriteHeld(commit, writes, queued: [1]) {
            await #expect(throws: GroupCommitRefusal(.full)) { try await commit.submit(2) }
        }
        #expect(outcomes == [0: true, 1: true])
        #expect(writes.recorded == [[0], [1]])
    }

    @Test("each caller gets its own job's answer from the batch's one write")
    func answers() async throws {
        let writes = Writes()
        let commit = GroupCommit<Int, Int>(maximumBatchSize: 8, maximumInFlight: 1, maximumQueued: 100) { jobs in
            try await writes.write(jobs, holdFirst: true)
            return jobs.map { $0 * 10 }
        }
        let answers = Shared<[Int: Int]>([:])
        await withTaskGroup(of: Void.self) { group in
            for job in 0...4 {
                group.addTask { if let answer = try? await commit.submit(job) { answers.update { $0[job] = answer } } }
                if job == 0 {
                    while writes.recorded.isEmpty { await Task.yield() }
                }
            }
            while commit.waiting < 4 { await Task.yield() }
            await writes.release()
        }
        #expect(answers.current == [0: 0, 1: 10, 2: 20, 3: 30, 4: 40])
        #expect(writes.recorded.map(\.count) == [1, 4])
    }

    @Test("a batch that fails with an error writesAloneAfter refuses: every caller of the batch gets that error, nothing is written alone")
    func failureNotIsolated() async throws {
        let writes = Writes(failing: [3])
        let commit = GroupCommit<Int, Void>(
            maximumBatchSize: 8, maximumInFlight: 1, maximumQueued: 100, writesAloneAfter: { _ in false }
        ) { jobs in
            try await writes.write(jobs, holdFirst: true)
        }
        let outcomes = await Self.withFirstWriteHeld(commit, writes, queued: Array(1...4))
        #expect(outcomes == [0: true, 1: false, 2: false, 3: false, 4: false])
        #expect(writes.recorded.count == 2)  // the held one and the batch of four
    }

    @Test("a job waiting past maximumWait is answered timedOut and never written; the write under way is not cut short")
    func maximumWait() async throws {
        let writes = Writes()
        let commit = GroupCommit<Int, Void>(maximumBatchSize: 8, maximumInFlight: 1, maximumQueued: 100, maximumWait: .milliseconds(100)) {
            try await writes.write($0, holdFirst: true)
        }
        let first = Task { try await commit.submit(0) }
        while writes.recorded.isEmpty { await Task.yield() }
        await #expect(throws: GroupCommitRefusal(.timedOut)) { try await commit.submit(1) }
        #expect(commit.waiting == 0)
        await writes.release()
        try await first.value
        #expect(writes.recorded == [[0]])
    }

    @Test("answersAtOnce: a cancelled caller gets CancellationError at once and its job is left out; waitsForWrite: it gets its answer")
    func cancellation() async throws {
        for policy in [GroupCommit<Int, Void>.Cancellation.answersAtOnce, .waitsForWrite] {
            let writes = Writes()
            let commit = GroupCommit<Int, Void>(
                maximumBatchSize: 8, maximumInFlight: 1, maximumQueued: 100, maximumWait: nil, cancellation: policy
            ) { jobs in
                try await writes.write(jobs, holdFirst: true)
                return Array(repeating: (), count: jobs.count)
            }
            let first = Task { try await commit.submit(0) }
            while writes.recorded.isEmpty { await Task.yield() }
            let answered = Shared(false)
            let cancelled = Task {
                defer { answered.update { $0 = true } }
                try await commit.submit(1)
            }
            let kept = Task { try await commit.submit(2) }
            while commit.waiting < 2 { await Task.yield() }
            cancelled.cancel()
            if policy == .answersAtOnce {
                // Answered while the write under way is still held (bounded, so a regression fails instead of hanging).
                let deadline = ContinuousClock.now + .seconds(5)
                while !answered.current && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
                #expect(answered.current, "the cancelled caller waited for the write")
            }
            await writes.release()
            try await first.value
            try await kept.value
            if policy == .waitsForWrite {
                try await cancelled.value
                #expect(writes.recorded == [[0], [1, 2]])
            } else {
                await #expect(throws: CancellationError.self) { try await cancelled.value }
                #expect(writes.recorded == [[0], [2]])
            }
        }
    }

    @Test("close answers the waiting jobs closed and refuses new ones; the write under way finishes")
    func close() async throws {
        let writes = Writes()
        let commit = GroupCommit<Int, Void>(maximumBatchSize: 8, maximumInFlight: 1, maximumQueued: 100) {
            try await writes.write($0, holdFirst: true)
        }
        let outcomes = Outcomes()
        await withTaskGroup(of: Void.self) { group in
            for job in 0...2 {
                group.addTask {
                    do {
                        try await commit.submit(job)
                        outcomes.record(job, succeeded: true)
                    } catch {
                        outcomes.record(job, failure: error)
                    }
                }
                if job == 0 {
                    while writes.recorded.isEmpty { await Task.yield() }
                }
            }
            while commit.waiting < 2 { await Task.yield() }
            commit.close()
            await #expect(throws: GroupCommitRefusal(.closed)) { try await commit.submit(3) }
            await writes.release()
        }
        #expect(outcomes.recorded == [0: true, 1: false, 2: false])
        #expect(outcomes.failures.values.allSatisfy { ($0 as? GroupCommitRefusal) == GroupCommitRefusal(.closed) })
        #expect(writes.recorded == [[0]])
    }

    @Test("afterWrite gets the answers of every write that succeeded: once per batch, once for a failed batch's jobs written alone")
    func afterWrite() async throws {
        let writes = Writes(failing: [3])
        let seen = Shared<[[Int]]>([])
        let commit = GroupCommit<Int, Int>(
            maximumBatchSize: 8, maximumInFlight: 1, maximumQueued: 100, afterWrite: { answers in seen.update { $0.append(answers) } }
        ) { jobs in
            try await writes.write(jobs, holdFirst: true)
            return jobs
        }
        let outcomes = await Self.withFirstWriteHeld(commit, writes, queued: Array(1...4))
        #expect(outcomes == [0: true, 1: true, 2: true, 3: false, 4: true])
        // afterWrite runs after the callers have their answers: wait for the second batch's.
        let deadline = ContinuousClock.now + .seconds(10)
        while seen.current.count < 2 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(seen.current == [[0], [1, 2, 4]])
    }
}
