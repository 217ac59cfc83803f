import Crypto
import Foundation

/// Random secrets as text: bytes from the system's generator in base64url without padding,
/// and the SHA-256 digest under which such a secret is stored.
public enum RandomToken {
    /// `byteCount` random bytes as base64url text.
    public static func generate(byteCount: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The SHA-256 digest of `text`'s UTF-8 bytes. A secret of 256 random bits needs no slow
    /// hash: the digest is stored and looked up, never the secret.
    public static func digest(of text: some StringProtocol) -> [UInt8] {
        Array(SHA256.hash(data: Array(text.utf8)))
    }
}
