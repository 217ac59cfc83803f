extension CurlHTTPClient {
    /// Settings fixed for the lifetime of a client.
    ///
    /// TLS peer and host verification are always on; on purpose there is no setting to
    /// turn them off. Tests against a local TLS server add their CA with `caBundlePath`.
    public struct Configuration: Sendable {
        /// Threads that run blocking libcurl transfers; also the number of transfers in flight.
        public var numberOfThreads: Int
        /// Largest response body accepted; larger ones fail with `.responseTooLarge`.
        public var maxResponseBytes: Int
        /// A PEM CA bundle used instead of the system one (libcurl's `CURLOPT_CAINFO`).
        public var caBundlePath: String?
        /// Limit for establishing the connection, TLS handshake included.
        public var connectTimeout: Duration
        /// Requests that may wait for a busy transfer thread; more fail at once with `.overloaded`.
        public var maxQueuedRequests: Int

        /// Creates a configuration; the defaults suit calls to Apple's APIs.
        public init(
            numberOfThreads: Int = 4,
            maxResponseBytes: Int = 16 * 1024 * 1024,
            caBundlePath: String? = nil,
            connectTimeout: Duration = .seconds(10),
            maxQueuedRequests: Int? = nil
        ) {
            self.maxQueuedRequests = max(0, maxQueuedRequests ?? max(256, numberOfThreads * 16))
            self.numberOfThreads = numberOfThreads
            self.maxResponseBytes = maxResponseBytes
            self.caBundlePath = caBundlePath
            self.connectTimeout = connectTimeout
        }
    }
}
