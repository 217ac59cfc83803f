import AppStore
import AppStoreSignature
import Foundation
import Testing

/// Genuine Apple notifications stored without their certificate chains: the chainless text is
/// a fraction of the received one, the worker reads it as it reads the received one, and
/// putting the chains back gives the received text byte for byte, which verifies again.
@Suite("Signed payloads stored without their chains: put back byte for byte, read the same without them")
struct SignedPayloadChainsTests {
    static let files = [
        "TEST_2022-09-02_sandbox.json", "DID_CHANGE_RENEWAL_PREF_UPGRADE_2025-07-30_sandbox.json", "DID_RENEW_2025-10-01_sandbox.json",
        "SUBSCRIBED_RESUBSCRIBE_2025-10-02_sandbox.json", "DID_CHANGE_RENEWAL_STATUS_AUTO_RENEW_DISABLED_2025-10-02_sandbox.json",
        "EXPIRED_VOLUNTARY_2025-10-02_sandbox.json", "CONSUMPTION_REQUEST_2025-10-16_sandbox.json", "REFUND_2025-10-16_sandbox.json",
    ]

    @Test("split, then joined, is the received text; it verifies; the chainless text decodes to the same", arguments: files)
    func roundTrip(_ file: String) async throws {
        let received = try FixtureFiles.signedPayload("v2-genuine/" + file)
        let (chainless, chains) = try #require(SignedPayloadChains.split(received))
        // One chain for the notification and every JWS nested in it.
        #expect(chains.count == 1)
        #expect(chains.allSatisfy { $0.id.wholeMatch(of: /sha256:[0-9a-f]{64}/) != nil && $0.text.hasPrefix("[\"") })
        #expect(SignedPayloadChains.references(in: chainless) == chains.map(\.id))
        let nested = received.utf8.count > 10_000
        #expect(chainless.utf8.count * (nested ? 4 : 2) < received.utf8.count, "\(chainless.utf8.count) of \(received.utf8.count) bytes")

        let joined = try #require(
            SignedPayloadChains.joined(chainless, chains: Dictionary(uniqueKeysWithValues: chains.map { ($0.id, $0.text) })))
        #expect(joined == received)
        _ = try await GenuineFixtureTests.g3Verifier().verifyNotification(joined)

        let fromChainless = try VerifiedNotificationV2.readingStored(chainless)
        let fromReceived = try VerifiedNotificationV2.readingStored(received)
        #expect(fromChainless.payload.notificationUUID == fromReceived.payload.notificationUUID)
        #expect(fromChainless.payload.signedDate == fromReceived.payload.signedDate)
        #expect(fromChainless.transaction?.transactionID == fromReceived.transaction?.transactionID)
        #expect(fromChainless.transaction?.expiresDate == fromReceived.transaction?.expiresDate)
        #expect(fromChainless.renewalInfo?.autoRenewStatus == fromReceived.renewalInfo?.autoRenewStatus)
    }

    @Test("a chainless text whose chain is missing is not joined; a text with no reference is returned as it is")
    func missingChains() throws {
        let received = try FixtureFiles.signedPayload("v2-genuine/DID_RENEW_2025-10-01_sandbox.json")
        let (chainless, _) = try #require(SignedPayloadChains.split(received))
        #expect(SignedPayloadChains.joined(chainless, chains: [:]) == nil)
        #expect(SignedPayloadChains.joined(chainless, chains: ["sha256:" + String(repeating: "0", count: 64): "[\"AA==\"]"]) == nil)
        #expect(SignedPayloadChains.joined(received, chains: [:]) == received)
        #expect(SignedPayloadChains.references(in: received).isEmpty)
    }

    @Test("what is not a JWS with a chain is not split")
    func nothingToSplit() {
        #expect(SignedPayloadChains.split("") == nil)
        #expect(SignedPayloadChains.split("not.a.jws!") == nil)
        #expect(SignedPayloadChains.split("a.b") == nil)
        // {"alg":"ES256"} with no x5c, and an empty payload.
        #expect(SignedPayloadChains.split(Base64URL.encode(Array(#"{"alg":"ES256"}"#.utf8)) + ".e30.AAAA") == nil)
        // A nested field that is not a JWS: kept whole.
        let header = Base64URL.encode(Array(#"{"alg":"ES256","x5c":["QUFB"]}"#.utf8))
        let payload = Base64URL.encode(Array(#"{"data":{"signedTransactionInfo":"oops"}}"#.utf8))
        #expect(SignedPayloadChains.split("\(header).\(payload).AAAA") == nil)
    }

    @Test("a chain in a header that is not the first key, with spaces, comes back exactly")
    func unusualHeader() throws {
        let header = Base64URL.encode(Array(#"{"kid" : "k1", "x5c" : [ "QUFB", "QkJC" ], "alg":"ES256"}"#.utf8))
        let payload = Base64URL.encode(Array(#"{"notificationType":"TEST"}"#.utf8))
        let received = "\(header).\(payload).AAAA"
        let (chainless, chains) = try #require(SignedPayloadChains.split(received))
        #expect(chains.map(\.text) == [#"[ "QUFB", "QkJC" ]"#])
        #expect(SignedPayloadChains.joined(chainless, chains: [chains[0].id: chains[0].text]) == received)
    }
}
