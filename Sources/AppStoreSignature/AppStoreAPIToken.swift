import Foundation

/// The ES256 JWT that authenticates one App Store Server API request.
///
/// Header `{"alg":"ES256","kid":…,"typ":"JWT"}`, claims `iss`, `iat`, `exp` (iat + 5 minutes,
/// as Apple's library does), `aud` `appstoreconnect-v1` and `bid`, signed with the app's
/// In-App Purchase key (a PKCS#8 `.p8` P-256 key). Never log the key or a token.
public struct AppStoreAPIToken: Sendable {
    /// How long a token lives.
    public static let lifetime: TimeInterval = 300

    private let key: InAppPurchaseKey

    /// A signer for one app's credentials; `privateKeyPEM` is the `.p8` file's text.
    public init(privateKeyPEM: String, keyID: String, issuerID: String, bundleID: String) throws {
        key = try InAppPurchaseKey(privateKeyPEM: privateKeyPEM, keyID: keyID, issuerID: issuerID, bundleID: bundleID)
    }

    /// A token issued at `now` (whole seconds), for `Authorization: Bearer <token>`.
    public func token(now: Date = Date()) throws -> String {
        let issuedAt = now.claimSeconds
        return try key.jws(claims: [
            "iss": key.issuerID, "iat": issuedAt, "exp": issuedAt + Int64(Self.lifetime),
            "aud": "appstoreconnect-v1", "bid": key.bundleID,
        ])
    }
}
