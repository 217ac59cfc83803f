/// What happened to a batch of deliveries.
public struct DeliveryReport: Sendable, Hashable {
    /// Notifications handed to the sender (copies count).
    public var sent = 0
    /// Those that got a 2xx in the end.
    public var delivered = 0
    /// HTTP requests made, retries included.
    public var attempts = 0
    /// Answers per HTTP status, over all attempts.
    public var statuses: [Int: Int] = [:]
    /// Attempts that got no HTTP answer (refused, reset, timeout).
    public var transportErrors = 0
    /// The notifications that never got a 2xx.
    public var failed: [SimNotification] = []
    /// The v2 notifications a drop policy skipped (never sent; not counted as failed).
    public var dropped: [SimNotification] = []

    /// An empty report.
    public init() {}

    /// One line for a failed expectation: which notifications never got a 2xx, and what the
    /// attempts were answered.
    public var failureSummary: String {
        let names = failed.prefix(5).map { "\($0.customerID) #\($0.sequence) \($0.version) \($0.typeName)" }
        let more = failed.count > 5 ? " and \(failed.count - 5) more" : ""
        let answers = statuses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        return
            "\(failed.count) never got a 2xx (\(names.joined(separator: "; "))\(more)); answers \(answers); \(transportErrors) transport errors"
    }

    /// Adds another report's counts.
    mutating func merge(_ other: DeliveryReport) {
        sent += other.sent
        delivered += other.delivered
        attempts += other.attempts
        statuses.merge(other.statuses, uniquingKeysWith: +)
        transportErrors += other.transportErrors
        failed += other.failed
        dropped += other.dropped
    }
}
