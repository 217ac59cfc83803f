import AppStoreSignature
import Crypto
import Foundation
import Testing

/// The signatures StoreKit takes from a server: Apple's claims and audiences, verified with
/// the public key alone; the v1 message byte for byte in Apple's documented order.
@Suite struct StoreKitOfferSignerTests {
    let key = P256.Signing.PrivateKey()
    let nonce = UUID(uuidString: "9C7B5E2A-1F3D-4E8B-A6C0-2D4F6A8B0C1E")!
    let now = Date(timeIntervalSince1970: 1_764_028_800.25)

    func signer() throws -> StoreKitOfferSigner {
        try StoreKitOfferSigner(
            privateKeyPEM: key.pemRepresentation, keyID: "KEY123ABCD", issuerID: "issuer-uuid", bundleID: "com.example.app")
    }

    /// The header and claims of a compact JWS whose signature verifies with `key`'s public key
    /// (a signature that does not verify fails the test), and the claims' JSON text.
    func verified(_ jws: String) throws -> (header: [String: Any], claims: [String: Any], claimsText: String) {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try base64URL(parts[2]))
        #expect(key.publicKey.isValidSignature(signature, for: Array("\(parts[0]).\(parts[1])".utf8)), "the signature does not verify")
        let claimsData = try base64URL(parts[1])
        return (
            try #require(try JSONSerialization.jsonObject(with: try base64URL(parts[0])) as? [String: Any]),
            try #require(try JSONSerialization.jsonObject(with: claimsData) as? [String: Any]),
            String(decoding: claimsData, as: UTF8.self)
        )
    }

    func base64URL(_ part: Substring) throws -> Data {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return try #require(Data(base64Encoded: text))
    }

    @Test("the introductory-offer eligibility JWS has Apple's header, audience and claims", arguments: [true, false])
    func introductoryOfferEligibility(allow: Bool) throws {
        let jws = try signer().introductoryOfferEligibility(
            productID: "com.example.pro.monthly", allowIntroductoryOffer: allow, transactionID: "2000000123456789", nonce: nonce, now: now)
        let (header, claims, text) = try verified(jws)
        #expect(header as NSDictionary == ["alg": "ES256", "kid": "KEY123ABCD", "typ": "JWT"] as NSDictionary)
        #expect(claims["aud"] as? String == "introductory-offer-eligibility")
        #expect(claims["iss"] as? String == "issuer-uuid")
        #expect(claims["bid"] as? String == "com.example.app")
        #expect(claims["iat"] as? Int == 1_764_028_800)
        #expect(claims["nonce"] as? String == "9c7b5e2a-1f3d-4e8b-a6c0-2d4f6a8b0c1e")
        #expect(claims["productId"] as? String == "com.example.pro.monthly")
        #expect(claims["transactionId"] as? String == "2000000123456789")
        // A JSON boolean, not 0/1: StoreKit decodes the claim as Bool.
        #expect(text.contains("\"allowIntroductoryOffer\":\(allow)"))
        #expect(claims.count == 8)
    }

    @Test("the promotional-offer JWS names the offer, and the transaction only when given")
    func promotionalOffer() throws {
        let withTransaction = try verified(
            try signer().promotionalOffer(
                productID: "com.example.pro.yearly", offerID: "comeback50", transactionID: "2000000999", nonce: nonce, now: now))
        #expect(withTransaction.claims["aud"] as? String == "promotional-offer")
        #expect(withTransaction.claims["offerIdentifier"] as? String == "comeback50")
        #expect(withTransaction.claims["productId"] as? String == "com.example.pro.yearly")
        #expect(withTransaction.claims["transactionId"] as? String == "2000000999")
        #expect(withTransaction.claims.count == 8)

        let without = try verified(
            try signer().promotionalOffer(productID: "com.example.pro.yearly", offerID: "comeback50", transactionID: nil, now: now))
        #expect(without.claims["transactionId"] == nil)
        #expect(without.claims.count == 7)
        #expect(without.claims["nonce"] as? String != withTransaction.claims["nonce"] as? String, "each signature has its own nonce")
    }

    @Test("the v1 promotional-offer message is Apple's seven fields joined by U+2063, byte for byte")
    func promotionalOfferV1Message() {
        let message = StoreKitOfferSigner.promotionalOfferV1Message(
            bundleID: "com.example.app", keyID: "KEY123ABCD", productID: "com.example.pro.yearly", offerID: "comeback50",
            appAccountToken: "5A1C3E2B-7D4F-5A6B-8C9D-0E1F2A3B4C5D", nonce: nonce, timestamp: 1_764_028_800_250)
        let separator: [UInt8] = [0xE2, 0x81, 0xA3]  // U+2063 INVISIBLE SEPARATOR in UTF-8
        let expected: [UInt8] = [
            Array("com.example.app".utf8), Array("KEY123ABCD".utf8), Array("com.example.pro.yearly".utf8), Array("comeback50".utf8),
            Array("5a1c3e2b-7d4f-5a6b-8c9d-0e1f2a3b4c5d".utf8), Array("9c7b5e2a-1f3d-4e8b-a6c0-2d4f6a8b0c1e".utf8),
            Array("1764028800250".utf8),
        ].joined(separator: separator).map { $0 }
        #expect(Array(message.utf8) == expected)
    }

    @Test("the v1 signature is DER ECDSA over that message and verifies with the public key; an empty token is allowed")
    func promotionalOfferV1Signature() throws {
        for token in ["5A1C3E2B-7D4F-5A6B-8C9D-0E1F2A3B4C5D", ""] {
            let signed = try signer().promotionalOfferV1(
                productID: "com.example.pro.yearly", offerID: "comeback50", appAccountToken: token, nonce: nonce, now: now)
            #expect(signed.keyID == "KEY123ABCD")
            #expect(signed.nonce == "9c7b5e2a-1f3d-4e8b-a6c0-2d4f6a8b0c1e")
            #expect(signed.timestamp == 1_764_028_800_250)
            let der = try #require(Data(base64Encoded: signed.signature))
            let signature = try P256.Signing.ECDSASignature(derRepresentation: der)
            let message = StoreKitOfferSigner.promotionalOfferV1Message(
                bundleID: "com.example.app", keyID: "KEY123ABCD", productID: "com.example.pro.yearly", offerID: "comeback50",
                appAccountToken: token, nonce: nonce, timestamp: signed.timestamp)
            #expect(key.publicKey.isValidSignature(signature, for: Array(message.utf8)))
            // Another offer id would not verify: the signature binds every field.
            let other = StoreKitOfferSigner.promotionalOfferV1Message(
                bundleID: "com.example.app", keyID: "KEY123ABCD", productID: "com.example.pro.yearly", offerID: "comeback75",
                appAccountToken: token, nonce: nonce, timestamp: signed.timestamp)
            #expect(!key.publicKey.isValidSignature(signature, for: Array(other.utf8)))
        }
    }

    @Test("a key that is not a P-256 PEM is refused")
    func badKey() {
        #expect(throws: (any Error).self) {
            try StoreKitOfferSigner(
                privateKeyPEM: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----", keyID: "k", issuerID: "i", bundleID: "b")
        }
    }
}
