/// A bounded queue drained in batches by at most `maximumDrains` loops at once: the
/// bookkeeping under ``GroupCommit`` (intake's inserts, the worker's applies) and the
/// read-answer writer.
///
/// Natural batching, no timer: the item that finds a drain slot free starts a drain loop at
/// once; items that arrive while every slot is busy wait, and each loop takes what waits, a
/// batch at a time, until nothing does, then gives its slot back. A pure value: its owner
/// guards it with a lock and starts the loops.
public struct BatchQueue<Item> {
    /// What `admit` did with an item.
    public enum Admission: Sendable, Equatable {
        /// Refused: the queue is closed.
        case closed
        /// Refused: `maximumQueued` items wait already.
        case full
        /// Queued; a running loop will take it.
        case queued
        /// Queued, and a drain slot was taken for it: start a loop.
        case startDrain
    }

    private let maximumQueued: Int
    private let maximumDrains: Int
    private var items: [Item] = []
    private var head = 0
    /// Drain loops running.
    public private(set) var drains = 0
    /// Whether new items are refused.
    public private(set) var isClosed = false

    /// A queue holding at most `maximumQueued` items, drained by at most `maximumDrains` loops.
    public init(maximumQueued: Int, maximumDrains: Int) {
        self.maximumQueued = max(1, maximumQueued)
        self.maximumDrains = max(1, maximumDrains)
    }

    /// How many items wait.
    public var count: Int { items.count - head }

    /// The oldest waiting item.
    public var first: Item? { head < items.count ? items[head] : nil }

    /// Queues `item` unless the queue is closed or full.
    public mutating func admit(_ item: Item) -> Admission {
        guard !isClosed else { return .closed }
        guard count < maximumQueued else { return .full }
        items.append(item)
        guard drains < maximumDrains else { return .queued }
        drains += 1
        return .startDrain
    }

    /// For a running loop: up to `maximumSize` waiting items, oldest first, leaving out (and
    /// dropping) those `keep` refuses. An empty batch means nothing waits: the loop ends and
    /// its slot is free again.
    public mutating func takeBatch(maximumSize: Int, keeping keep: (Item) -> Bool = { _ in true }) -> [Item] {
        var batch: [Item] = []
        while head < items.count, batch.count < max(1, maximumSize) {
            let item = items[head]
            head += 1
            if keep(item) { batch.append(item) }
        }
        compact()
        if batch.isEmpty { drains -= 1 }
        return batch
    }

    /// Removes and returns the oldest items while `predicate` holds for them.
    public mutating func removeFirst(while predicate: (Item) -> Bool) -> [Item] {
        var removed: [Item] = []
        while head < items.count, predicate(items[head]) {
            removed.append(items[head])
            head += 1
        }
        compact()
        return removed
    }

    /// Refuses new items from now on; the waiting ones stay for the loops.
    public mutating func close() {
        isClosed = true
    }

    /// Removes and returns every waiting item.
    public mutating func removeAll() -> [Item] {
        let all = Array(items[head...])
        items.removeAll()
        head = 0
        return all
    }

    /// Drops taken items once they are most of the storage, so taking stays O(1) amortised.
    private mutating func compact() {
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 1_024, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
    }
}

extension BatchQueue: Sendable where Item: Sendable {}
