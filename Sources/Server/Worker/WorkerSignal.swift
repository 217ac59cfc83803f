/// Wakes the worker's dispatcher early: intake signals it after storing a notification,
/// so new work starts at once instead of at the next poll.
public actor WorkerSignal {
    private var pending = false
    private var waiter: CheckedContinuation<Void, Never>?
    private var waiterGeneration = 0

    /// Creates a signal with nothing pending.
    public init() {}

    /// Wakes the waiting dispatcher, or makes its next wait return at once.
    public func signal() {
        if let waiter {
            self.waiter = nil
            waiter.resume()
        } else {
            pending = true
        }
    }

    /// Returns after a `signal()` or after `timeout`, whichever is first.
    func wait(upTo timeout: Duration) async {
        if pending {
            pending = false
            return
        }
        waiterGeneration += 1
        let generation = waiterGeneration
        await withCheckedContinuation { continuation in
            waiter = continuation
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                await self?.expire(generation: generation)
            }
        }
    }

    private func expire(generation: Int) {
        guard generation == waiterGeneration, let waiter else { return }
        self.waiter = nil
        waiter.resume()
    }
}

/// Counts free processing slots; the dispatcher waits for one before claiming more work.
actor WorkerSlots {
    private(set) var free: Int
    private let count: Int
    private var waiter: CheckedContinuation<Void, Never>?
    private var idleWaiter: CheckedContinuation<Void, Never>?

    init(count: Int) {
        self.free = count
        self.count = count
    }

    /// Returns once every slot is free: nothing is in flight.
    func waitUntilIdle() async {
        guard free < count else { return }
        await withCheckedContinuation { idleWaiter = $0 }
    }

    /// Returns once at least one slot is free.
    func waitForFree() async {
        guard free == 0 else { return }
        await withCheckedContinuation { waiter = $0 }
    }

    /// Takes `count` slots (the caller saw them free).
    func take(_ count: Int) {
        free -= count
    }

    /// Gives one slot back.
    func release() {
        free += 1
        if let waiter {
            self.waiter = nil
            waiter.resume()
        }
        if free == count, let idleWaiter {
            self.idleWaiter = nil
            idleWaiter.resume()
        }
    }
}
