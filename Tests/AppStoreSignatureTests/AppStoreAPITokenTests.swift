import AppStoreSignature
import Crypto
import Foundation
import Testing

/// The App Store Server API token has Apple's header and claims and verifies with the key.
@Suite struct AppStoreAPITokenTests {
    func decodePart(_ part: Substring) throws -> [String: Any] {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        let data = try #require(Data(base64Encoded: text))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func headerClaimsAndSignature() throws {
        let key = P256.Signing.PrivateKey()
        let signer = try AppStoreAPIToken(
            privateKeyPEM: key.pemRepresentation, keyID: "KEY123", issuerID: "issuer-uuid", bundleID: "com.example.app")
        let token = try signer.token(now: Date(timeIntervalSince1970: 1_735_689_600.7))
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        #expect(!token.contains("="))

        let header = try decodePart(parts[0])
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == "KEY123")
        #expect(header["typ"] as? String == "JWT")
        let claims = try decodePart(parts[1])
        #expect(claims["iss"] as? String == "issuer-uuid")
        #expect(claims["iat"] as? Int == 1_735_689_600)
        #expect(claims["exp"] as? Int == 1_735_689_900)
        #expect(claims["aud"] as? String == "appstoreconnect-v1")
        #expect(claims["bid"] as? String == "com.example.app")

        var signatureText = parts[2].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while signatureText.count % 4 != 0 { signatureText += "=" }
        let raw = try #require(Data(base64Encoded: signatureText))
        #expect(raw.count == 64)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: raw)
        #expect(key.publicKey.isValidSignature(signature, for: Array("\(parts[0]).\(parts[1])".utf8)))
    }

    @Test func aKeyThatIsNotP256PEMIsRefused() {
        #expect(throws: (any Error).self) {
            try AppStoreAPIToken(privateKeyPEM: "not a key", keyID: "k", issuerID: "i", bundleID: "b")
        }
    }
}
