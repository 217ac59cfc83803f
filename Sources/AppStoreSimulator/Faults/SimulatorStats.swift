/// Counts of verifyReceipt requests served, per outcome and per endpoint.
public struct SimulatorStats: Sendable, Hashable, Codable {
    /// Every verifyReceipt request.
    public var total = 0
    /// Requests per outcome key (`ServedOutcome.description`).
    public var outcomes: [String: Int] = [:]
    /// Requests per endpoint: `production`, `sandbox`.
    public var endpoints: [String: Int] = [:]
    /// App Store Server API requests per outcome (`http_200`, `http_401`, `http_429`, `hang`, ...);
    /// not part of `total`.
    public var api: [String: Int] = [:]

    /// An empty count.
    public init() {}

    /// How many requests ended with `outcome`.
    public func count(_ outcome: ServedOutcome) -> Int {
        outcomes[outcome.description] ?? 0
    }

    /// Requests that got an injected fault.
    public var faults: Int {
        count(.status(21005)) + count(.status(21100)) + count(.http(500)) + count(.http(503)) + count(.http(429))
            + count(.hang) + count(.reset)
    }

    mutating func record(_ outcome: ServedOutcome, endpoint: VerifyEndpoint) {
        total += 1
        outcomes[outcome.description, default: 0] += 1
        endpoints[endpoint.rawValue, default: 0] += 1
    }
}
