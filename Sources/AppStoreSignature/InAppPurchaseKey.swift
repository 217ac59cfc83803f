import Crypto

/// An app's In-App Purchase key (App Store Connect's `.p8`, PKCS#8 P-256) with the ids that go
/// with it: what signs App Store Server API tokens and the signatures StoreKit takes from a
/// server. Never log it.
struct InAppPurchaseKey: Sendable {
    let key: P256.Signing.PrivateKey
    let keyID: String
    let issuerID: String
    let bundleID: String

    /// Parses `privateKeyPEM` (the `.p8` file's text).
    init(privateKeyPEM: String, keyID: String, issuerID: String, bundleID: String) throws {
        key = try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        self.keyID = keyID
        self.issuerID = issuerID
        self.bundleID = bundleID
    }

    /// A compact JWS over `claims`, header `{"alg":"ES256","kid":…,"typ":"JWT"}`.
    func jws(claims: [String: Any]) throws -> String {
        try ES256.compactJWS(header: ["alg": "ES256", "kid": keyID, "typ": "JWT"], claims: claims, key: key)
    }
}
