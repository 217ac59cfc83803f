import Logging
import NIOPosix
import Synchronization

/// An HTTP/1.1 and HTTP/2 client over libcurl for small request/response exchanges.
///
/// Every transfer runs on one dedicated thread driving a libcurl multi handle (one loop,
/// many transfers), never on an event loop or Swift's cooperative pool; callers just await
/// their answer. The multi handle's connection cache is shared by all transfers, so
/// consecutive requests reuse keep-alive connections and HTTP/2 ones carry many at once.
/// At most `maxConcurrentTransfers` run at once, `maxQueuedRequests` more wait, later
/// ones fail with `.overloaded`. Call `shutdown()` before dropping the client.
public final class CurlHTTPClient: Sendable {
    private let configuration: Configuration
    private let logger: Logger
    /// One thread: the multi loop's.
    private let loopThread: NIOThreadPool
    /// Nil only when libcurl could not create a multi handle; every request then fails.
    private let mailbox: CurlMailbox?
    private let outstanding = Atomic<Int>(0)

    /// Creates a client and starts its transfer thread.
    public init(configuration: Configuration = .init(), logger: Logger) {
        CurlGlobal.ensureInitialized()
        self.configuration = configuration
        self.logger = logger
        self.loopThread = NIOThreadPool(numberOfThreads: 1)
        loopThread.start()
        guard let multi = CurlMultiHandle(configuration: configuration) else {
            logger.debug("curl_multi_init failed: every request of this client will fail")
            self.mailbox = nil
            return
        }
        let mailbox = CurlMailbox(multi: multi)
        let loop = CurlMultiLoop(multi: multi, mailbox: mailbox, configuration: configuration, logger: logger)
        // Runs even when handed `.cancelled`, so the shutdown still fails pending requests.
        loopThread.submit { _ in loop.run() }
        self.mailbox = mailbox
    }

    /// Sends a request and returns the response, whatever its status.
    ///
    /// Throws `HTTPClientError` when no complete response arrived within the request's
    /// timeout (time spent waiting for a free transfer slot included), and
    /// `CancellationError` when the task is cancelled (the transfer is stopped) or the
    /// client shuts down first. `logger` overrides the client's logger for this request,
    /// e.g. to carry a request id.
    public func execute(_ request: HTTPRequest, logger: Logger? = nil) async throws -> HTTPResponse {
        let logger = logger ?? self.logger
        let admitted = outstanding.wrappingAdd(1, ordering: .relaxed).newValue
        defer { outstanding.wrappingSubtract(1, ordering: .relaxed) }
        let started = ContinuousClock.now
        guard admitted <= configuration.maxConcurrentTransfers + configuration.maxQueuedRequests else {
            configuration.onFinish?(.zero, nil)
            throw HTTPClientError(kind: .overloaded)
        }
        do {
            let response = try await send(request, startedAt: started)
            configuration.onFinish?(ContinuousClock.now - started, response.status)
            let extra: Logger.Metadata = [HTTPClientLogKey.status: "\(response.status)"]
            logger.debug("HTTP request finished", metadata: Self.metadata(request, started: started, extra: extra))
            return response
        } catch {
            configuration.onFinish?(ContinuousClock.now - started, nil)
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

    /// Fails every pending request with `CancellationError`, closes the connections and
    /// stops the transfer thread. Requests started afterwards fail with `CancellationError`.
    public func shutdown() async throws {
        mailbox?.requestShutdown()
        try await loopThread.shutdownGracefully()
    }

    /// Hands the request to the loop and waits for its answer or the task's cancellation.
    private func send(_ request: HTTPRequest, startedAt started: ContinuousClock.Instant) async throws -> HTTPResponse {
        guard let mailbox else {
            throw HTTPClientError(kind: .transport, curlCode: nil, detail: "curl_multi_init failed")
        }
        try Task.checkCancellation()
        let pending = CurlPendingRequest(request: request, startedAt: started)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard pending.attach(continuation) else { return }
                if !mailbox.submit(pending) {
                    pending.finish(.failure(CancellationError()))
                }
            }
        } onCancel: {
            pending.cancel()
            mailbox.cancel(pending)
        }
    }

    /// Log metadata for a request: never the body, and the URL without its query.
    private static func metadata(
        _ request: HTTPRequest,
        started: ContinuousClock.Instant,
        extra: Logger.Metadata
    ) -> Logger.Metadata {
        let url = LoggedURL.origin(of: request.url)
        let elapsed = (ContinuousClock.now - started).curlMilliseconds
        return extra.merging([
            HTTPClientLogKey.method: "\(request.method.rawValue)",
            HTTPClientLogKey.url: "\(url)",
            HTTPClientLogKey.durationMilliseconds: "\(elapsed)",
        ]) { current, _ in current }
    }
}
