import Crypto
import Foundation

/// Checks an App Store Server API bearer token as Apple does: ES256 over the configured
/// public key, header `kid`/`alg`/`typ`, claims `iss`, `aud`, `bid`, `iat` and `exp`.
struct APITokenVerifier {
    /// Apple's audience for App Store Connect keys.
    static let audience = "appstoreconnect-v1"
    /// The longest life Apple accepts, `exp - iat`.
    static let maximumLifetime: TimeInterval = 3_600
    /// Clock skew tolerated on `iat`.
    static let skew: TimeInterval = 60

    var key: SimAPIKey?
    var bundleIDs: Set<String>

    /// The `bid` of a valid `Authorization` header value, or a sentence saying what is wrong.
    func verify(authorization: String?, now: Date) -> Result<String, APIError> {
        guard let key else { return .failure(.unauthorized("the simulator has no API key configured (appstore-sim api-key)")) }
        guard let authorization, authorization.hasPrefix("Bearer ") else {
            return .failure(.unauthorized("missing Authorization: Bearer <JWT>"))
        }
        let pieces = authorization.dropFirst(7).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard pieces.count == 3,
            let header = Self.object(pieces[0]), let claims = Self.object(pieces[1]),
            let signatureBytes = Self.base64URLDecode(pieces[2]),
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
        else { return .failure(.unauthorized("not a compact ES256 JWT")) }
        guard header["alg"] as? String == "ES256", header["typ"] as? String == "JWT" else {
            return .failure(.unauthorized("header must have alg ES256 and typ JWT"))
        }
        guard header["kid"] as? String == key.keyID else { return .failure(.unauthorized("unknown kid")) }
        guard key.publicKey.isValidSignature(signature, for: Data((pieces[0] + "." + pieces[1]).utf8)) else {
            return .failure(.unauthorized("signature does not verify with the key \(key.keyID)"))
        }
        guard claims["iss"] as? String == key.issuerID else { return .failure(.unauthorized("wrong iss")) }
        guard claims["aud"] as? String == Self.audience else { return .failure(.unauthorized("aud must be \(Self.audience)")) }
        guard let bid = claims["bid"] as? String, bundleIDs.contains(bid) else {
            return .failure(.unauthorized("bid is not an app of the simulator"))
        }
        guard let iat = Self.number(claims["iat"]), let exp = Self.number(claims["exp"]) else {
            return .failure(.unauthorized("iat and exp must be numbers"))
        }
        let seconds = now.timeIntervalSince1970
        guard exp > seconds else { return .failure(.unauthorized("token expired")) }
        guard iat <= seconds + Self.skew, exp > iat, exp - iat <= Self.maximumLifetime else {
            return .failure(.unauthorized("exp must be after iat and at most 60 minutes later; iat not in the future"))
        }
        return .success(bid)
    }

    private static func number(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, !(value is Bool), !(value is String) else { return nil }
        let double = number.doubleValue
        return double.isFinite ? double : nil
    }

    private static func object(_ part: String) -> [String: Any]? {
        guard let data = base64URLDecode(part) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    private static func base64URLDecode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
