import ServiceSupport
import Testing

/// The queue under the intake batcher and the answer writer.
@Suite("BatchQueue: bounded, drained in batches by a limited number of loops")
struct BatchQueueTests {
    @Test("the first items take the drain slots, later ones queue; full and closed refuse; an empty batch frees a slot")
    func slots() {
        var queue = BatchQueue<Int>(maximumQueued: 4, maximumDrains: 2)
        #expect(queue.admit(1) == .startDrain)
        #expect(queue.admit(2) == .startDrain)
        #expect(queue.admit(3) == .queued)
        #expect(queue.admit(4) == .queued)
        #expect(queue.admit(5) == .full)
        #expect(queue.takeBatch(maximumSize: 3) == [1, 2, 3])
        #expect(queue.takeBatch(maximumSize: 3) == [4])
        #expect(queue.drains == 2)
        #expect(queue.takeBatch(maximumSize: 3).isEmpty)
        #expect(queue.drains == 1)
        #expect(queue.admit(6) == .startDrain)
        queue.close()
        #expect(queue.admit(7) == .closed)
        #expect(queue.removeAll() == [6])
        #expect(queue.count == 0 && queue.first == nil)
    }

    @Test("items a batch does not keep are dropped; expired ones leave from the front")
    func keepingAndExpiry() {
        var queue = BatchQueue<Int>(maximumQueued: 100, maximumDrains: 1)
        for item in 0..<10 { _ = queue.admit(item) }
        #expect(queue.removeFirst { $0 < 3 } == [0, 1, 2])
        #expect(queue.first == 3)
        #expect(queue.takeBatch(maximumSize: 3) { $0 % 2 == 0 } == [4, 6, 8])
        #expect(queue.takeBatch(maximumSize: 3) == [9])
        #expect(queue.count == 0)
    }

    @Test("a long-lived queue keeps its order through many admissions and batches")
    func order() {
        var queue = BatchQueue<Int>(maximumQueued: 5_000, maximumDrains: 1)
        var taken: [Int] = []
        var next = 0
        for round in 0..<200 {
            for _ in 0..<(round % 7 + 20) {
                _ = queue.admit(next)
                next += 1
            }
            taken += queue.takeBatch(maximumSize: 17)
        }
        while queue.count > 0 { taken += queue.takeBatch(maximumSize: 64) }
        #expect(taken == Array(0..<next))
    }
}
