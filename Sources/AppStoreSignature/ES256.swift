import AppStore
import Crypto
import Foundation

/// ES256 as JOSE spells it: ECDSA P-256 with SHA-256, signature as raw r‖s (64 bytes).
enum ES256 {
    /// Whether `signature` (raw r‖s) signs `message` under `key`; any other length is invalid.
    static func isValid(signature: [UInt8], for message: [UInt8], key: P256.Signing.PublicKey) -> Bool {
        guard signature.count == 64,
            let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature)
        else { return false }
        return key.isValidSignature(parsed, for: message)
    }

    /// Signs `message` and returns raw r‖s.
    static func sign(_ message: [UInt8], with key: P256.Signing.PrivateKey) throws -> [UInt8] {
        Array(try key.signature(for: message).rawRepresentation)
    }

    /// A compact JWS (`header.claims.signature`, base64url) over the two JSON objects, keys
    /// sorted, signed with `key`: the App Store Server API token and the signatures StoreKit
    /// accepts from a server are all made this way.
    static func compactJWS(header: [String: Any], claims: [String: Any], key: P256.Signing.PrivateKey) throws -> String {
        let input = try part(header) + "." + part(claims)
        return input + "." + Base64URL.encode(try sign(Array(input.utf8), with: key))
    }

    private static func part(_ object: [String: Any]) throws -> String {
        Base64URL.encode(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }
}
