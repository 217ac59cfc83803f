/// A way the verifyReceipt server misbehaves on purpose (APPSTORE.md's failure table).
public enum Fault: String, Sendable, Hashable, Codable, CaseIterable {
    /// HTTP 200 with `{"status":21005}`: receipt server temporarily unavailable.
    case status21005 = "21005"
    /// HTTP 200 with `{"status":21100,"is-retryable":true}`: internal data access error.
    case status21100 = "21100"
    /// HTTP 500.
    case http500 = "500"
    /// HTTP 503.
    case http503 = "503"
    /// HTTP 429 with `Retry-After` one second later (UNIX ms), as the App Store Server API
    /// answers when rate limited; verifyReceipt gets a bare 429.
    case http429 = "429"
    /// No answer until the hang limit passes (the client times out first), then a reset.
    case hang
    /// The connection is reset (TCP RST) instead of answering.
    case reset

    /// The faults a plain `--fault-rate` spreads over: all but `hang`, which costs a client
    /// timeout each time.
    public static let quick: [Fault] = [.status21005, .status21100, .http500, .http503, .reset]
}
