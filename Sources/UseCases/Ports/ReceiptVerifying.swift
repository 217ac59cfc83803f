import AppStoreServerAPI
import Logging

/// Apple's `verifyReceipt`, every answer classified (`ReceiptVerifier` in production).
public protocol ReceiptVerifying: Sendable {
    /// Verifies base64 `receiptData` of `bundleID` with its shared secret; never throws.
    func verify(receiptData: String, bundleID: String, sharedSecret: String?, logger: Logger) async -> VerificationResult
}
