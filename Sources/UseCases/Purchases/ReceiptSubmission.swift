import AppStore
import AppStoreSignature
import Settings

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

    /// The transaction id to look the customer up by: the receipt's first purchase, once its
    /// PKCS#7 signature verifies to a receipt root and it names this app. An unverified
    /// receipt's contents are never a lookup key: anyone can write a transaction id into one.
    func provenTransactionID(verifiedBy verifier: AppReceiptVerifier) async throws(UseCaseError) -> String {
        let contents: AppReceiptContents
        do {
            contents = try AppReceiptContents(base64: receiptData)
        } catch {
            throw .malformed(error.description)
        }
        do {
            _ = try await verifier.verify(contents)
        } catch {
            throw .receiptRejected("the receipt is not signed by the App Store: \(error.description); nothing was looked up or linked")
        }
        guard contents.bundleID == app.bundleID else {
            throw .receiptRejected("the receipt is for \(contents.bundleID ?? "no app"), not \(app.bundleID)")
        }
        guard let transactionID = contents.firstTransactionID else {
            throw .receiptRejected("the receipt holds no in-app purchase to look up")
        }
        return transactionID
    }
}
