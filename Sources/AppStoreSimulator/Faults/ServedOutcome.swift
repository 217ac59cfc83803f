/// How a verifyReceipt request was answered.
public enum ServedOutcome: Sendable, Hashable, CustomStringConvertible {
    /// HTTP 200 with this `status` (0, 21002, 21005, 21007, 21100, ...).
    case status(Int)
    /// An HTTP error status (500, 503) instead of a JSON answer.
    case http(Int)
    /// Held without answer, then reset.
    case hang
    /// Connection reset.
    case reset

    /// The key in `SimulatorStats.outcomes` and `GET /control/stats`: `status_0`, `http_503`, `hang`, `reset`.
    public var description: String {
        switch self {
        case .status(let code): "status_\(code)"
        case .http(let code): "http_\(code)"
        case .hang: "hang"
        case .reset: "reset"
        }
    }
}
