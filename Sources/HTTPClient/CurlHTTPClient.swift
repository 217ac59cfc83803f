import Logging
import Synchronization
import NIOCore
import NIOPosix

/// An HTTP/1.1 and HTTP/2 client over libcurl for small request/response exchanges.
///
/// libcurl's transfers block, so each one runs on a thread of the client's own
/// `NIOThreadPool`, never on an event loop or Swift's cooperative pool. Easy handles are
/// pooled with their connection caches, so consecutive requests reuse keep-alive
/// connections. Call `shutdown()` before dropping the client.
public final class CurlHTTPClient: Sendable {
    private let configuration: Configuration
    private let logger: Logger
    private let threadPool: NIOThreadPool
    private let handles: CurlHandlePool
    private let outstanding = Atomic<Int>(0)

    /// Creates a client and starts its threads.
    public init(configuration: Configuration = .init(), logger: Logger) {
        precondition(configuration.numberOfThreads > 0, "numberOfThreads must be positive")
        CurlGlobal.ensureInitialized()
        self.configuration = configuration
        self.logger = logger
        self.threadPool = NIOThreadPool(numberOfThreads: configuration.numberOfThreads)
        self.handles = CurlHandlePool(maxIdle: configuration.numberOfThreads)
        threadPool.start()
    }

    /// Sends a request and returns the response, whatever its status.
    ///
    /// Throws `HTTPClientError` when no complete response arrived. `logger` overrides the
    /// client's logger for this request, e.g. to carry a request id.
    public func execute(_ request: HTTPRequest, logger: Logger? = nil) async throws -> HTTPResponse {
        let logger = logger ?? self.logger
        let (handles, configuration) = (self.handles, self.configuration)
        // The thread pool's own queue has no bound: admit only as many as it may hold.
        let admitted = outstanding.wrappingAdd(1, ordering: .relaxed).newValue
        defer { outstanding.wrappingSubtract(1, ordering: .relaxed) }
        guard admitted <= configuration.numberOfThreads + configuration.maxQueuedRequests else {
            throw HTTPClientError(kind: .overloaded)
        }
        let started = ContinuousClock.now
        do {
            let response = try await threadPool.runIfActive {
                let handle = try handles.lease()
                defer { handles.release(handle) }
                return try handle.perform(request, configuration: configuration)
            }
            let extra: Logger.Metadata = [HTTPClientLogKey.status: "\(response.status)"]
            logger.debug("HTTP request finished", metadata: Self.metadata(request, started: started, extra: extra))
            return response
        } catch {
            let extra: Logger.Metadata = [HTTPClientLogKey.error: "\(String(reflecting: error))"]
            logger.debug("HTTP request failed", metadata: Self.metadata(request, started: started, extra: extra))
            throw error
        }
    }

    /// Sends a request and throws `HTTPClientError.Kind.httpStatus` unless the status is 2xx.
    public func executeExpectingSuccess(_ request: HTTPRequest, logger: Logger? = nil) async throws -> HTTPResponse {
        let response = try await execute(request, logger: logger)
        guard response.isSuccess else { throw HTTPClientError.httpStatus(response.status) }
        return response
    }

    /// Waits for running transfers, stops the threads and closes pooled connections.
    ///
    /// Requests started afterwards fail with NIO's `NIOThreadPoolError.ThreadPoolInactive`
    /// or `CancellationError`.
    public func shutdown() async throws {
        try await threadPool.shutdownGracefully()
        handles.close()
    }

    /// Log metadata for a request: never the body, and the URL without its query.
    private static func metadata(
        _ request: HTTPRequest,
        started: ContinuousClock.Instant,
        extra: Logger.Metadata
    ) -> Logger.Metadata {
        let url = request.url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let elapsed = (ContinuousClock.now - started).curlMilliseconds
        return extra.merging([
            HTTPClientLogKey.method: "\(request.method.rawValue)",
            HTTPClientLogKey.url: "\(url)",
            HTTPClientLogKey.durationMilliseconds: "\(elapsed)",
        ]) { current, _ in current }
    }
}
