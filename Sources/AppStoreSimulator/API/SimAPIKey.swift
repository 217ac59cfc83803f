import Crypto
import Foundation

/// The App Store Connect In-App Purchase key the simulator accepts bearer tokens from: its
/// key id, issuer id and P-256 public key (the private half is the app's `.p8`).
public struct SimAPIKey: Sendable {
    /// The JWT header's `kid`.
    public var keyID: String
    /// The JWT claim `iss`.
    public var issuerID: String
    /// Verifies the tokens' ES256 signatures.
    public var publicKey: P256.Signing.PublicKey

    /// A key from its parts.
    public init(keyID: String, issuerID: String, publicKey: P256.Signing.PublicKey) {
        self.keyID = keyID
        self.issuerID = issuerID
        self.publicKey = publicKey
    }

    /// A key from a public key PEM (SPKI, `-----BEGIN PUBLIC KEY-----`).
    public init(keyID: String, issuerID: String, publicKeyPEM: String) throws {
        self.init(keyID: keyID, issuerID: issuerID, publicKey: try P256.Signing.PublicKey(pemRepresentation: publicKeyPEM))
    }

    /// A fresh key pair: the key the simulator accepts, and the PKCS#8 private key PEM
    /// (`-----BEGIN PRIVATE KEY-----`, the format of App Store Connect's `.p8`) to sign with.
    ///
    /// Ids default to random ones shaped like Apple's (10 characters; a UUID).
    public static func generate(keyID: String? = nil, issuerID: String? = nil) -> (key: SimAPIKey, privateKeyPEM: String) {
        let privateKey = P256.Signing.PrivateKey()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        let kid = keyID ?? String((0..<10).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
        let key = SimAPIKey(keyID: kid, issuerID: issuerID ?? UUID().uuidString.lowercased(), publicKey: privateKey.publicKey)
        return (key, privateKey.pemRepresentation)
    }
}
