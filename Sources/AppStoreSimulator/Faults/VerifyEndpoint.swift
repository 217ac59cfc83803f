/// The two verifyReceipt URLs.
public enum VerifyEndpoint: String, Sendable, Hashable, Codable {
    /// `POST /verifyReceipt`, like `buy.itunes.apple.com`.
    case production
    /// `POST /sandbox/verifyReceipt`, like `sandbox.itunes.apple.com`.
    case sandbox
}
