import AppStore
import Foundation
import SigningTestSupport
import Testing

@Suite("App receipts: what the PKCS#7 container says (bundle, creation date, purchases), read before it is believed")
struct AppReceiptContentsTests {
    @Test("a real sandbox receipt: its app, its creation date, and transactions its verifyReceipt answer lists")
    func realReceipt() throws {
        let capture =
            try JSONSerialization.jsonObject(
                with: Data(try Fixtures.bytes("v1/DID_CHANGE_RENEWAL_STATUS_sandbox_full-unified-receipt.json"))) as? [String: Any]
        let unified = try #require(capture?["unified_receipt"] as? [String: Any])
        let receipt = try #require(unified["latest_receipt"] as? String)
        let listed = try #require(unified["latest_receipt_info"] as? [[String: Any]]).compactMap { $0["transaction_id"] as? String }
        let contents = try AppReceiptContents(base64: receipt)
        let id = try #require(contents.firstTransactionID)
        #expect(listed.contains(id), "\(id) is one of the receipt's own transactions")
        #expect(contents.bundleID == "com.twigano.fashion")
        #expect(contents.createdAt == Date(timeIntervalSince1970: 1_606_297_712))  // 2020-11-25T09:48:32Z
        #expect(Set(contents.purchases.compactMap(\.transactionID)) == Set(listed), "every in_app entry is read")
    }

    @Test("the first purchase's transaction id, else its original transaction id; none without purchases")
    func builtReceipts() throws {
        let both = try TestAppReceipt.base64(
            bundleID: "com.example.app",
            purchases: [
                .init(transactionID: "2000000001", originalTransactionID: "1000000001"),
                .init(transactionID: "2000000002", originalTransactionID: "1000000001"),
            ])
        #expect(try AppReceiptContents(base64: both).firstTransactionID == "2000000001")
        let originalOnly = try TestAppReceipt.base64(
            bundleID: "com.example.app",
            purchases: [
                .init(transactionID: nil, originalTransactionID: "1000000009")
            ])
        #expect(try AppReceiptContents(base64: originalOnly).firstTransactionID == "1000000009")
        let empty = try TestAppReceipt.base64(bundleID: "com.example.app", purchases: [])
        #expect(try AppReceiptContents(base64: empty).firstTransactionID == nil)
        // Line breaks inside the base64, as some clients send it.
        let wrapped = stride(from: 0, to: both.count, by: 64).map { offset -> String in
            let start = both.index(both.startIndex, offsetBy: offset)
            return String(both[start..<(both.index(start, offsetBy: 64, limitedBy: both.endIndex) ?? both.endIndex)])
        }.joined(separator: "\r\n")
        #expect(try AppReceiptContents(base64: wrapped).firstTransactionID == "2000000001")
    }

    @Test(
        "anything else is a format error, never a crash",
        arguments: [
            "not base64 at all!", "", "bm90IGEgcmVjZWlwdA==",
            // A SEQUENCE claiming more bytes than it has, and one nested deeper than any parser allows.
            Data([0x30, 0x84, 0x7F, 0xFF, 0xFF, 0xFF, 0x06]).base64EncodedString(),
            Data(Array(repeating: [UInt8(0x30), 0x80], count: 200).flatMap { $0 }).base64EncodedString(),
        ])
    func garbage(_ receipt: String) {
        #expect(throws: AppReceiptFormatError.self) { try AppReceiptContents(base64: receipt) }
    }

    @Test("a PKCS#7 container whose content is not receipt attributes is a format error")
    func foreignContent() throws {
        let container = try TestAppReceipt.container(content: Array("hello".utf8))
        #expect(throws: AppReceiptFormatError.self) {
            try AppReceiptContents(bytes: container)
        }
    }
}
