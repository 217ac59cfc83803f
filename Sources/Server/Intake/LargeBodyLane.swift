import NIOPosix
import Synchronization

/// Reads large intake bodies on a thread of their own, one at a time, so that many of them
/// at once (4 MiB each, whatever their sender) never take the cores that small
/// notifications, the worker and the API are served on.
///
/// Bodies up to `threshold` bytes, which is every notification Apple sends without a
/// receipt and most with one, are read where they arrive. Larger ones queue for the lane;
/// at most `maximumWaiting` wait, and the next is answered 503 (Apple retries it later).
final class LargeBodyLane: Sendable {
    /// Bodies above this many bytes go through the lane.
    let threshold: Int
    private let maximumWaiting: Int
    private let waiting = Atomic(0)
    private let thread: NIOThreadPool

    /// A lane for bodies over `threshold` bytes, with at most `maximumWaiting` waiting.
    init(threshold: Int = 64 * 1024, maximumWaiting: Int = 32) {
        self.threshold = threshold
        self.maximumWaiting = maximumWaiting
        thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
    }

    /// `work` over a body of `size` bytes: here when small, else on the lane's thread.
    func read<T: Sendable>(size: Int, _ work: @escaping @Sendable () throws(APIError) -> T) async throws(APIError) -> T {
        guard size > threshold else { return try work() }
        guard waiting.add(1, ordering: .relaxed).newValue <= maximumWaiting else {
            waiting.subtract(1, ordering: .relaxed)
            throw APIError.unavailable("too many large bodies are being read at once; try again shortly")
        }
        defer { waiting.subtract(1, ordering: .relaxed) }
        let result: Result<T, APIError>
        do {
            result = try await thread.runIfActive { Result { () throws(APIError) -> T in try work() } }
        } catch {
            throw APIError.unavailable("subscriptiond is shutting down; try again shortly")
        }
        return try result.get()
    }

    /// Stops the thread (at shutdown).
    func shutdown() async throws {
        try await thread.shutdownGracefully()
    }
}
