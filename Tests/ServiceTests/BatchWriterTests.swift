import ServiceSupport
import Synchronization
import Testing

/// `BatchWriter`, which records retention answers off the request path: items handed over
/// are written in batches by one loop, a full or closed writer drops and counts, a failed
/// write is counted, and `flush` returns once everything handed over is settled.
@Suite("BatchWriter: batches off the request path, bounded, every item accounted for")
struct BatchWriterTests {
    /// What the writer wrote, and its outcomes.
    final class Recorder: Sendable {
        let batches = Mutex<[[Int]]>([])
        let outcomes = Mutex<[BatchWriter<Int>.Outcome: Int]>([:])

        func count(_ outcome: BatchWriter<Int>.Outcome) -> Int { outcomes.withLock { $0[outcome] ?? 0 } }
    }

    @Test("items handed over while a write runs wait for the next batch, at most the batch size each, in order")
    func batchesInOrder() async {
        let recorder = Recorder()
        let writer = BatchWriter<Int>(
            maximumBatchSize: 3, maximumQueued: 100,
            onOutcome: { outcome, count, _ in recorder.outcomes.withLock { $0[outcome, default: 0] += count } },
            write: { batch in
                recorder.batches.withLock { $0.append(batch) }
                try await Task.sleep(for: .milliseconds(50))
            })
        for item in 1...8 { writer.submit(item) }
        await writer.flush()
        let batches = recorder.batches.withLock { $0 }
        #expect(batches.flatMap { $0 } == Array(1...8))
        #expect(batches.allSatisfy { $0.count <= 3 })
        #expect(recorder.count(.written) == 8 && recorder.count(.dropped) == 0)
    }

    @Test("a full queue and a closed writer drop and count what they refuse; a failed write is counted, not retried")
    func boundsAndFailures() async {
        let recorder = Recorder()
        struct Refused: Error {}
        let writer = BatchWriter<Int>(
            maximumBatchSize: 10, maximumQueued: 2,
            onOutcome: { outcome, count, _ in recorder.outcomes.withLock { $0[outcome, default: 0] += count } },
            write: { batch in
                recorder.batches.withLock { $0.append(batch) }
                try await Task.sleep(for: .milliseconds(200))
                if batch.contains(2) { throw Refused() }
            })
        // 1 starts the loop and is being written; 2 and 3 wait; 4 finds the queue full; 5 a closed writer.
        writer.submit(1)
        let deadline = ContinuousClock.now + .seconds(10)
        while recorder.batches.withLock({ $0.isEmpty }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        writer.submit(2)
        writer.submit(3)
        writer.submit(4)
        writer.close()
        writer.submit(5)
        await writer.flush()
        #expect(recorder.batches.withLock { $0 } == [[1], [2, 3]])
        #expect(recorder.count(.written) == 1 && recorder.count(.failed) == 2 && recorder.count(.dropped) == 2)
    }
}
