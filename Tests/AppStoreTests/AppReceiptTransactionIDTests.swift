import AppStore
import Foundation
import SigningTestSupport
import Testing

@Suite("App receipts: a transaction id read out of the PKCS#7 container, as an API lookup key")
struct AppReceiptTransactionIDTests {
    @Test("a real sandbox receipt yields one of the transactions its verifyReceipt answer lists")
    func realReceipt() throws {
        let capture = try JSONSerialization.jsonObject(
            with: Data(try Fixtures.bytes("v1/DID_CHANGE_RENEWAL_STATUS_sandbox_full-unified-receipt.json"))) as? [String: Any]
        let unified = try #require(capture?["unified_receipt"] as? [String: Any])
        let receipt = try #require(unified["latest_receipt"] as? String)
        let listed = try #require(unified["latest_receipt_info"] as? [[String: Any]]).compactMap { $0["transaction_id"] as? String }
        let id = try #require(try AppReceiptTransactionID.extract(fromBase64: receipt))
        #expect(listed.contains(id), "\(id) is one of the receipt's own transactions")
    }

    @Test("the first purchase's transaction id, else its original transaction id; none without purchases")
    func builtReceipts() throws {
        let both = try TestAppReceipt.base64(bundleID: "com.example.app", purchases: [
            .init(transactionID: "2000000001", originalTransactionID: "1000000001"),
            .init(transactionID: "2000000002", originalTransactionID: "1000000001"),
        ])
        #expect(try AppReceiptTransactionID.extract(fromBase64: both) == "2000000001")
        let originalOnly = try TestAppReceipt.base64(bundleID: "com.example.app", purchases: [
            .init(transactionID: nil, originalTransactionID: "1000000009"),
        ])
        #expect(try AppReceiptTransactionID.extract(fromBase64: originalOnly) == "1000000009")
        let empty = try TestAppReceipt.base64(bundleID: "com.example.app", purchases: [])
        #expect(try AppReceiptTransactionID.extract(fromBase64: empty) == nil)
        // Line breaks inside the base64, as some clients send it.
        let wrapped = stride(from: 0, to: both.count, by: 64).map { offset -> String in
            let start = both.index(both.startIndex, offsetBy: offset)
            return String(both[start..<(both.index(start, offsetBy: 64, limitedBy: both.endIndex) ?? both.endIndex)])
        }.joined(separator: "\r\n")
        #expect(try AppReceiptTransactionID.extract(fromBase64: wrapped) == "2000000001")
    }

    @Test("anything else is a format error, never a crash", arguments: [
        "not base64 at all!", "", "bm90IGEgcmVjZWlwdA==",
        // A SEQUENCE claiming more bytes than it has, and one nested deeper than any parser allows.
        Data([0x30, 0x84, 0x7F, 0xFF, 0xFF, 0xFF, 0x06]).base64EncodedString(),
        Data(Array(repeating: [UInt8(0x30), 0x80], count: 200).flatMap { $0 }).base64EncodedString(),
    ])
    func garbage(_ receipt: String) {
        #expect(throws: AppReceiptFormatError.self) { try AppReceiptTransactionID.extract(fromBase64: receipt) }
    }

    @Test("a PKCS#7 container whose content is not receipt attributes is a format error")
    func foreignContent() throws {
        let container = try TestAppReceipt.container(content: Array("hello".utf8))
        #expect(throws: AppReceiptFormatError.self) {
            try AppReceiptTransactionID.extract(fromBase64: Data(container).base64EncodedString())
        }
    }
}
