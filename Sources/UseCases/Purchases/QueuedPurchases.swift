import AppStore
import Foundation
import JSON
import Store

/// Purchases queued in the inbox because Apple did not answer in time, finished by the
/// worker: the one owner of their stored bodies, both ways (written by the `/v1` API, read
/// back by the worker).
public enum QueuedPurchases {
    /// A receipt sent to `POST /v1/receipts`. Verification starts at production: the
    /// environment is unknown until Apple answers.
    static func receiptEntry(receiptData: String, bundleID: String, appUserID: String) throws -> InboxEntry {
        let body: [String: String] = ["app_user_id": appUserID, "receipt_data": receiptData, "bundle_id": bundleID]
        let data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        return InboxEntry(
            source: .receipt, dedupeKey: DedupeKey.queuedReceipt(bodyDigest: ContentHash.sha256Hex(data)), notificationType: nil,
            environment: .production, bundleID: bundleID, originalTransactionID: nil, appUserID: appUserID,
            body: String(decoding: data, as: UTF8.self))
    }

    /// A transaction id sent to `POST /v1/transactions` (or read from a receipt of an app
    /// without a shared secret). The lookup tries production first.
    static func lookupEntry(transactionID: String, bundleID: String, appUserID: String) -> InboxEntry {
        let body = CanonicalJSONWriter.string(
            .object([
                "app_user_id": .string(appUserID), "bundle_id": .string(bundleID), "transaction_id": .string(transactionID),
            ]))
        return InboxEntry(
            source: .transaction, dedupeKey: DedupeKey.queuedLookup(bodyDigest: ContentHash.sha256Hex(Data(body.utf8))),
            notificationType: nil, environment: .production, bundleID: bundleID, originalTransactionID: nil, appUserID: appUserID,
            body: body)
    }

    /// The receipt of a stored queued-receipt body.
    static func receiptData(fromStoredBody body: String) -> String? {
        (try? StrictJSONParser.parse(Array(body.utf8)))?["receipt_data"]?.stringValue
    }

    /// The transaction id of a stored queued-lookup body.
    static func transactionID(fromStoredBody body: String) -> String? {
        (try? StrictJSONParser.parse(Array(body.utf8)))?["transaction_id"]?.stringValue
    }
}
