import AppStore
import Foundation
import Store
import SubscriptiondCore
import Subscriptions

/// A receipt to verify for the app's backend, resolved to its app.
struct ReceiptSubmission: Sendable {
    let receiptData: String
    let app: AppCredentials

    /// Picks the app: the body's `bundle_id`, or the only configured one.
    init(receiptData: String, bundleID: String?, apps: AppRegistry) throws {
        self.receiptData = receiptData
        if let bundleID {
            guard let app = apps.app(bundleID: bundleID) else { throw APIError.malformed("bundle_id \(bundleID) is not a configured app") }
            self.app = app
        } else {
            let ids = apps.bundleIDs
            guard ids.count == 1, let app = apps.app(bundleID: ids[0]) else {
                throw APIError.malformed("bundle_id is required when several apps are configured")
            }
            self.app = app
        }
    }

    /// Whether this app's receipts are resolved through the App Store Server API: it has a
    /// key for it and no shared secret for `verifyReceipt` (an app moved off it).
    func isLookedUp(by lookup: TransactionLookup) -> Bool {
        app.sharedSecret == nil && lookup.canLookUp(bundleID: app.bundleID)
    }

    /// The transaction id the receipt names: read, not verified, so only a key for the lookup,
    /// whose signed answer is what counts.
    func transactionIDToLookUp() throws -> String {
        let transactionID: String?
        do {
            transactionID = try AppReceiptTransactionID.extract(fromBase64: receiptData)
        } catch {
            throw APIError.malformed(error.description)
        }
        guard let transactionID else {
            throw APIError.receiptRejected("the receipt holds no in-app purchase to look up")
        }
        return transactionID
    }

    /// The inbox entry that queues this receipt for the worker when the upstream is down.
    func queuedEntry(appUserID: String) throws -> InboxEntry {
        let body: [String: String] = ["app_user_id": appUserID, "receipt_data": receiptData, "bundle_id": app.bundleID]
        let data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        let digest = ContentHash.sha256Hex(data)
        return InboxEntry(
            source: .receipt, dedupeKey: "receipt:" + digest, notificationType: nil,
            // Unknown until Apple answers; verification starts at production.
            environment: .production, bundleID: app.bundleID, originalTransactionID: nil, appUserID: appUserID,
            body: String(decoding: data, as: UTF8.self)
        )
    }
}
