import Crypto
import Foundation

/// The ES256 JWT that authenticates one App Store Server API request.
///
/// Header `{"alg":"ES256","kid":…,"typ":"JWT"}`, claims `iss`, `iat`, `exp` (iat + 5 minutes,
/// as Apple's library does), `aud` `appstoreconnect-v1` and `bid`, signed with the app's
/// In-App Purchase key (a PKCS#8 `.p8` P-256 key). Never log the key or a token.
public struct AppStoreAPIToken: Sendable {
    /// How long a token lives.
    public static let lifetime: TimeInterval = 300

    private let key: P256.Signing.PrivateKey
    private let keyID: String
    private let issuerID: String
    private let bundleID: String

    /// A signer for one app's credentials; `privateKeyPEM` is the `.p8` file's text.
    public init(privateKeyPEM: String, keyID: String, issuerID: String, bundleID: String) throws {
        key = try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        self.keyID = keyID
        self.issuerID = issuerID
        self.bundleID = bundleID
    }

    /// A token issued at `now` (whole seconds), for `Authorization: Bearer <token>`.
    public func token(now: Date = Date()) throws -> String {
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down).clamped(to: 0...4_102_444_800))
        let header: [String: Any] = ["alg": "ES256", "kid": keyID, "typ": "JWT"]
        let claims: [String: Any] = [
            "iss": issuerID, "iat": issuedAt, "exp": issuedAt + Int64(Self.lifetime),
            "aud": "appstoreconnect-v1", "bid": bundleID,
        ]
        let input = try Self.part(header) + "." + Self.part(claims)
        let signature = try ES256.sign(Array(input.utf8), with: key)
        return input + "." + Base64URL.encode(signature)
    }

    private static func part(_ object: [String: Any]) throws -> String {
        Base64URL.encode(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
