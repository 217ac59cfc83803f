import AppStore
import Settings
import SubscriptiondCore

/// A receipt sent for a user, resolved to its app.
public struct ReceiptSubmission: Sendable {
    public let receiptData: String
    public let app: AppCredentials

    /// Picks the app: `bundleID`, or the only configured one.
    public init(receiptData: String, bundleID: String?, apps: AppRegistry) throws(UseCaseError) {
        self.receiptData = receiptData
        if let bundleID {
            guard let app = apps.app(bundleID: bundleID) else { throw .malformed("bundle_id \(bundleID) is not a configured app") }
            self.app = app
        } else {
            let ids = apps.bundleIDs
            guard ids.count == 1, let app = apps.app(bundleID: ids[0]) else {
                throw .malformed("bundle_id is required when several apps are configured")
            }
            self.app = app
        }
    }

    /// Whether this app's receipts are resolved through the App Store Server API: it has a
    /// key for it and no shared secret for `verifyReceipt` (an app moved off it).
    func isLookedUp(by evidence: AppleEvidence) -> Bool {
        app.sharedSecret == nil && evidence.canLookUp(bundleID: app.bundleID)
    }

    /// The transaction id the receipt names: read, not verified, so only a key for the lookup,
    /// whose signed answer is what counts.
    func transactionIDToLookUp() throws(UseCaseError) -> String {
        let transactionID: String?
        do {
            transactionID = try AppReceiptContents(base64: receiptData).firstTransactionID
        } catch {
            throw .malformed(error.description)
        }
        guard let transactionID else {
            throw .receiptRejected("the receipt holds no in-app purchase to look up")
        }
        return transactionID
    }
}
