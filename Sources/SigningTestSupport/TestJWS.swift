import Crypto
import Foundation

/// Signs compact JWS the way the App Store does (ES256, `x5c` header), for the tests of
/// the signature verifier and of the App Store Server API client.
public enum TestJWS {
    /// Unpadded base64url.
    public static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A JWS over `payload` (JSON text) with the given header fields, signed by `key`.
    ///
    /// `x5c: nil` leaves the header without a chain; `alg` may be anything, to test refusals.
    public static func sign(payload: String, x5c: [String]?, alg: String = "ES256", key: P256.Signing.PrivateKey) throws -> String {
        var header: [String: Any] = ["alg": alg]
        if let x5c { header["x5c"] = x5c }
        let headerJSON = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
        let input = base64URL(headerJSON) + "." + base64URL(Array(payload.utf8))
        let signature = try key.signature(for: Array(input.utf8)).rawRepresentation
        return input + "." + base64URL(signature)
    }

    /// A JWS signed by the leaf of `pki` with its own chain.
    public static func sign(payload: String, by pki: TestPKI) throws -> String {
        try sign(payload: payload, x5c: pki.x5c, key: pki.leaf.key)
    }
}
