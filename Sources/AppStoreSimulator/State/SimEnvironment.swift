/// Apple's two environments; customers, receipts and URLs belong to exactly one.
public enum SimEnvironment: String, Sendable, Hashable, Codable, CaseIterable {
    /// Real purchases: `buy.itunes.apple.com`.
    case production = "Production"
    /// Test purchases with accelerated renewals: `sandbox.itunes.apple.com`.
    case sandbox = "Sandbox"

    /// The spelling of v1 notifications' top-level `environment` (`PROD`, not `Production`).
    public var notificationValue: String {
        switch self {
        case .production: "PROD"
        case .sandbox: "Sandbox"
        }
    }

    /// `receipt.receipt_type` in verifyReceipt answers.
    var receiptType: String {
        switch self {
        case .production: "Production"
        case .sandbox: "ProductionSandbox"
        }
    }
}
