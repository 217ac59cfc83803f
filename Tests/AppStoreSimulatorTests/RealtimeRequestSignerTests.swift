import AppStoreSimulator
import Crypto
import Foundation
import Testing

/// `RealtimeRequestSigner`: Get Retention Message requests signed like the simulator's
/// notifications, with Apple's `DecodedRealtimeRequestBody` fields.
@Suite("Realtime request signer")
struct RealtimeRequestSignerTests {
    @Test("the body is {signedPayload}, signed by the simulator's leaf with its x5c chain, the payload in Apple's fields")
    func signsLikeNotifications() throws {
        let simulator = makeSimulator()
        let pki = try simulator.signingPKI()
        let identifier = UUID()
        let fields = RealtimeRequestFields(
            originalTransactionID: "2000000123456789", appAppleID: 1_234_567_890, productID: "com.example.pro.monthly",
            userLocale: "de-DE", requestIdentifier: identifier, environment: .production,
            signedDate: Date(timeIntervalSince1970: 1_764_300_000.123))
        let body = try jsonObject(try simulator.realtimeRequestSigner().body(fields))
        #expect(Array(body.keys) == ["signedPayload"])
        let jws = try DecodedJWS(try #require(body["signedPayload"] as? String))
        #expect(jws.header["alg"] as? String == "ES256")
        #expect(jws.header["x5c"] as? [String] == pki.x5c)
        #expect(jws.verifies(with: pki.leaf.key.publicKey))
        #expect(!jws.verifies(with: P256.Signing.PrivateKey().publicKey))
        #expect(jws.payload["originalTransactionId"] as? String == "2000000123456789")
        #expect(jws.payload["appAppleId"] as? Int == 1_234_567_890)
        #expect(jws.payload["productId"] as? String == "com.example.pro.monthly")
        #expect(jws.payload["userLocale"] as? String == "de-DE")
        #expect(jws.payload["requestIdentifier"] as? String == identifier.uuidString.lowercased())
        #expect(jws.payload["environment"] as? String == "Production")
        #expect(jws.payload["signedDate"] as? Int == 1_764_300_000_123)
        #expect(jws.payload.count == 7)

        // A signer made from the same PKI signs the same way; another PKI's chain differs.
        let again = try DecodedJWS(try RealtimeRequestSigner(pki: pki).signedPayload(fields))
        #expect(again.verifies(with: pki.leaf.key.publicKey) && again.payload.count == 7)
        let other = try DecodedJWS(try RealtimeRequestSigner(pki: try SimPKI.generate()).signedPayload(fields))
        #expect(other.header["x5c"] as? [String] != pki.x5c && !other.verifies(with: pki.leaf.key.publicKey))
    }
}
