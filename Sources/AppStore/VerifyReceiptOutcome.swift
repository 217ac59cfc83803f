/// What the caller of verifyReceipt should do with a response's `status`.
public enum VerifyReceiptOutcome: Sendable, Equatable, Hashable {
    /// The body is valid (0, or 21006 for old-style expired receipts): derive facts from it.
    case apply
    /// 21007: a sandbox receipt reached production; send the same request to sandbox.
    case resendToSandbox
    /// 21008: a production receipt reached sandbox; send the same request to production.
    case resendToProduction
    /// A temporary upstream problem: retry with backoff.
    case retry(reason: String)
    /// 21002: maybe temporary, maybe malformed data: retry a few times, then give up.
    case retryFewTimes(reason: String)
    /// Retrying cannot help (bad receipt, wrong secret, our bug).
    case permanent(reason: String)

    /// The human reason, `nil` for the outcomes that need none.
    public var reason: String? {
        switch self {
        case .apply, .resendToSandbox, .resendToProduction: nil
        case .retry(let reason), .retryFewTimes(let reason), .permanent(let reason): reason
        }
    }
}
