extension CurlHTTPClient {
    /// Settings fixed for the lifetime of a client.
    ///
    /// TLS peer and host verification are always on; on purpose there is no setting to
    /// turn them off. Tests against a local TLS server add their CA with `caBundlePath`.
    public struct Configuration: Sendable {
        /// Transfers the client's multi loop runs at once; more wait for a free slot.
        public var maxConcurrentTransfers: Int
        /// Connections open at once to all hosts together (`CURLMOPT_MAX_TOTAL_CONNECTIONS`),
        /// and idle ones kept for reuse (`CURLMOPT_MAXCONNECTS`). A transfer that finds
        /// none free waits inside libcurl, its timeout running.
        public var maxConnections: Int
        /// Connections open at once to one host (`CURLMOPT_MAX_HOST_CONNECTIONS`). Over
        /// HTTP/1.1 each carries one transfer at a time; over HTTP/2 one carries many.
        public var maxConnectionsPerHost: Int
        /// Largest response body accepted; larger ones fail with `.responseTooLarge`.
        public var maxResponseBytes: Int
        /// A PEM CA bundle used instead of the system one (libcurl's `CURLOPT_CAINFO`).
        public var caBundlePath: String?
        /// Limit for establishing the connection, TLS handshake included.
        public var connectTimeout: Duration
        /// Requests that may wait for a free transfer slot; more fail at once with `.overloaded`.
        public var maxQueuedRequests: Int
        /// Told of every request when it ends: how long it took and the HTTP status (nil when
        /// no answer came: refused, timed out, cancelled, overloaded). For metrics.
        public var onFinish: (@Sendable (_ duration: Duration, _ status: Int?) -> Void)?

        /// Creates a configuration; the defaults suit calls to Apple's APIs. The connection
        /// limits default to one connection per concurrent transfer.
        public init(
            maxConcurrentTransfers: Int = 4,
            maxConnections: Int? = nil,
            maxConnectionsPerHost: Int? = nil,
            maxResponseBytes: Int = 16 * 1024 * 1024,
            caBundlePath: String? = nil,
            connectTimeout: Duration = .seconds(10),
            maxQueuedRequests: Int? = nil
        ) {
            let concurrency = max(1, maxConcurrentTransfers)
            self.maxConcurrentTransfers = concurrency
            self.maxConnections = max(1, maxConnections ?? concurrency)
            self.maxConnectionsPerHost = max(1, maxConnectionsPerHost ?? maxConnections ?? concurrency)
            self.maxQueuedRequests = max(0, maxQueuedRequests ?? max(256, concurrency * 16))
            self.maxResponseBytes = maxResponseBytes
            self.caBundlePath = caBundlePath
            self.connectTimeout = connectTimeout
        }

        /// The former spelling, from when each transfer had a thread of its own.
        @available(
            *, deprecated,
            renamed:
                "init(maxConcurrentTransfers:maxConnections:maxConnectionsPerHost:maxResponseBytes:caBundlePath:connectTimeout:maxQueuedRequests:)"
        )
        public init(
            numberOfThreads: Int,
            maxResponseBytes: Int = 16 * 1024 * 1024,
            caBundlePath: String? = nil,
            connectTimeout: Duration = .seconds(10),
            maxQueuedRequests: Int? = nil
        ) {
            self.init(
                maxConcurrentTransfers: numberOfThreads, maxResponseBytes: maxResponseBytes, caBundlePath: caBundlePath,
                connectTimeout: connectTimeout, maxQueuedRequests: maxQueuedRequests
            )
        }

        /// The former name of `maxConcurrentTransfers`.
        @available(*, deprecated, renamed: "maxConcurrentTransfers")
        public var numberOfThreads: Int {
            get { maxConcurrentTransfers }
            set { maxConcurrentTransfers = max(1, newValue) }
        }
    }
}
