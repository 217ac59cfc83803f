import AppStore
import JSON
import Testing

@Suite("StrictJSONParser round trips and typed decoding")
struct StrictJSONRoundTripTests {
    @Test("canonical output parses back to the same tree", arguments: CanonicalJSONWriterTests.fixtureFiles)
    func canonicalRoundTrip(_ path: String) throws {
        let tree = try StrictJSONParser.parse(try Fixtures.bytes(path))
        let canonical = CanonicalJSONWriter.bytes(tree)
        let again = try StrictJSONParser.parse(canonical)
        #expect(CanonicalJSONWriter.bytes(again) == canonical)
    }

    @Test(
        "a notification decodes the same from the tree as from the bytes",
        arguments: try Fixtures.jsonFiles(in: "v1"))
    func notificationFromTree(_ file: String) throws {
        let bytes = try Fixtures.bytes("v1/\(file)")
        let fromBytes = try NotificationV1.decode(from: bytes)
        let fromTree = try NotificationV1.decode(from: StrictJSONParser.parse(bytes))
        #expect(fromTree.notificationTypeRaw == fromBytes.notificationTypeRaw)
        #expect(fromTree.bundleID == fromBytes.bundleID)
        #expect(fromTree.password == fromBytes.password)
        #expect(fromTree.environment == fromBytes.environment)
        #expect(fromTree.originalTransactionIDs == fromBytes.originalTransactionIDs)
        #expect(fromTree.allTransactions.map(\.transactionID) == fromBytes.allTransactions.map(\.transactionID))
        #expect(fromTree.allTransactions.map(\.expiresDate) == fromBytes.allTransactions.map(\.expiresDate))
        #expect(fromTree.receiptData == fromBytes.receiptData)
    }

    @Test(
        "a verifyReceipt response decodes the same from the tree as from the bytes",
        arguments: try Fixtures.jsonFiles(in: "verifyReceipt"))
    func verifyResponseFromTree(_ file: String) throws {
        let bytes = try Fixtures.bytes("verifyReceipt/\(file)")
        let fromBytes = try VerifyReceiptResponse.decode(from: bytes)
        let fromTree = try VerifyReceiptResponse.decode(from: StrictJSONParser.parse(bytes))
        #expect(fromTree.status == fromBytes.status)
        #expect(fromTree.environment == fromBytes.environment)
        #expect(fromTree.latestReceiptInfo.map(\.transactionID) == fromBytes.latestReceiptInfo.map(\.transactionID))
        #expect(fromTree.latestReceiptInfo.map(\.purchaseDate) == fromBytes.latestReceiptInfo.map(\.purchaseDate))
        #expect(fromTree.pendingRenewalInfo.map(\.originalTransactionID) == fromBytes.pendingRenewalInfo.map(\.originalTransactionID))
        #expect(fromTree.receipt?.inApp.count == fromBytes.receipt?.inApp.count)
    }

    @Test func duplicateBundleIDCannotReachTheDecoder() {
        let body = json(#"{"notification_type":"DID_RENEW","bid":"com.a","password":"s","bid":"com.b"}"#)
        #expect(throws: JSONParseError.self) { try StrictJSONParser.parse(body) }
    }

    @Test func bigIntegerIDsDecodeAsBefore() throws {
        let body = json(#"{"notification_type":"DID_RENEW","original_transaction_id":100000000000000000000,"bid":1000000093384828}"#)
        let fromTree = try NotificationV1.decode(from: StrictJSONParser.parse(body))
        let fromBytes = try NotificationV1.decode(from: body)
        #expect(fromTree.bundleID == "1000000093384828")
        #expect(fromTree.originalTransactionID == fromBytes.originalTransactionID)
    }
}
