import AppStore
import Foundation
import Testing

@Suite("v1 notification decoding rules")
struct NotificationV1DecodingTests {
    @Test("unified_receipt of the wrong type is an error", arguments: [#""text""#, "[]", "[{}]", "42", "true"])
    func wrongUnifiedReceipt(literal: String) {
        #expect(throws: DecodingError.self) {
            try NotificationV1.decode(from: json(#"{"notification_type": "DID_RENEW", "unified_receipt": \#(literal)}"#))
        }
    }

    @Test func nullUnifiedReceiptIsAbsent() throws {
        let n = try NotificationV1.decode(from: json(#"{"notification_type": "DID_RENEW", "unified_receipt": null}"#))
        #expect(n.unifiedReceipt == nil)
        #expect(n.allTransactions.isEmpty)
        #expect(n.receiptData == nil)
    }

    @Test(
        "missing or unusable notification_type is an error",
        arguments: [
            #"{"environment": "PROD"}"#, #"{"notification_type": null}"#, #"{"notification_type": {}}"#, #"{"notification_type": ""}"#,
        ])
    func missingType(body: String) {
        #expect(throws: DecodingError.self) { try NotificationV1.decode(from: json(body)) }
    }

    @Test("the body must be an object", arguments: ["[]", #""DID_RENEW""#, "42", "null"])
    func nonObjectBody(body: String) {
        #expect(throws: (any Error).self) { try NotificationV1.decode(from: json(body)) }
    }

    @Test func unknownTypeDecodesWithTypedNil() throws {
        let n = try NotificationV1.decode(from: json(#"{"notification_type": "SOMETHING_NEW", "environment": "Sandbox"}"#))
        #expect(n.notificationTypeRaw == "SOMETHING_NEW")
        #expect(n.notificationType == nil)
        #expect(n.environment == .sandbox)
    }

    @Test func unknownEnvironmentAndIntentKeepTheRawValue() throws {
        let n = try NotificationV1.decode(from: json(#"{"notification_type": "CANCEL", "environment": "Staging", "expiration_intent": 7}"#))
        #expect(n.environmentRaw == "Staging")
        #expect(n.environment == nil)
        #expect(n.expirationIntentRaw == "7")
        #expect(n.expirationIntent == .unknown)
    }

    @Test func wrongTypesForOptionalTopLevelFieldsReadAsAbsent() throws {
        let n = try NotificationV1.decode(
            from: json(
                #"{"notification_type": "DID_CHANGE_RENEWAL_STATUS", "auto_renew_status": [], "bid": {}, "latest_receipt_info": "oops", "cancellation_date": "yesterday"}"#
            ))
        #expect(n.autoRenewStatus == nil)
        #expect(n.bundleID == nil)
        #expect(n.latestReceiptInfo == nil)
        #expect(n.cancellationDate == nil)
    }

    @Test func allTransactionsDeduplicatesAcrossUnifiedAndLegacy() throws {
        let entry = #"{"transaction_id": "2", "original_transaction_id": "1", "product_id": "p", "purchase_date_ms": "1500000000000"}"#
        let older = #"{"transaction_id": "3", "original_transaction_id": "0", "product_id": "p"}"#
        let body =
            #"{"notification_type": "CANCEL", "original_transaction_id": "9", "unified_receipt": {"latest_receipt_info": [\#(entry)], "pending_renewal_info": [{"original_transaction_id": "8"}]}, "latest_receipt_info": \#(entry), "latest_expired_receipt_info": \#(older), "latest_expired_receipt": "old"}"#
        let n = try NotificationV1.decode(from: json(body))
        #expect(n.allTransactions.map(\.transactionID) == ["2", "3"])
        #expect(n.originalTransactionIDs == ["0", "1", "8", "9"])
        #expect(n.receiptData == "old")
    }
}
