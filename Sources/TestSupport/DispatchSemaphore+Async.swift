import Dispatch

extension DispatchSemaphore {
    /// Waits for a signal from an async test without blocking a thread of the cooperative
    /// pool (the wait runs on a Dispatch thread), at most `timeout`; false when it ran out.
    @discardableResult
    public func waitOffThePool(timeout: DispatchTimeInterval = .seconds(10)) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: self.wait(timeout: .now() + timeout) == .success)
            }
        }
    }
}
