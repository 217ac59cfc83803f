import Crypto
import Foundation

/// Reads an App Store Server API bearer token the way Apple's side would: header, claims
/// and an ES256 signature checked against the expected public key.
enum TestJWT {
    /// The decoded parts of a compact JWT, or `nil` when it is not one.
    struct Parts {
        let header: [String: Any]
        let claims: [String: Any]
        let signingInput: String
        let signature: Data
    }

    static func decode(_ token: String) -> Parts? {
        let pieces = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard pieces.count == 3,
            let headerData = base64URLDecode(pieces[0]),
            let claimsData = base64URLDecode(pieces[1]),
            let signature = base64URLDecode(pieces[2]),
            let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any],
            let claims = (try? JSONSerialization.jsonObject(with: claimsData)) as? [String: Any]
        else { return nil }
        return Parts(header: header, claims: claims, signingInput: pieces[0] + "." + pieces[1], signature: signature)
    }

    /// Whether `token` is signed by `key` and carries Apple's header and claims for the app.
    static func isValid(
        _ token: String, key: P256.Signing.PublicKey, keyID: String, issuerID: String, bundleID: String, now: Date = Date()
    ) -> Bool {
        guard let parts = decode(token),
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: parts.signature),
            key.isValidSignature(signature, for: Data(parts.signingInput.utf8)),
            parts.header["alg"] as? String == "ES256", parts.header["kid"] as? String == keyID,
            parts.header["typ"] as? String == "JWT",
            parts.claims["iss"] as? String == issuerID, parts.claims["aud"] as? String == "appstoreconnect-v1",
            parts.claims["bid"] as? String == bundleID,
            let iat = (parts.claims["iat"] as? NSNumber)?.doubleValue,
            let exp = (parts.claims["exp"] as? NSNumber)?.doubleValue
        else { return false }
        return exp > now.timeIntervalSince1970 && exp <= iat + 3600 && iat <= now.timeIntervalSince1970 + 60
    }

    static func base64URLDecode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
