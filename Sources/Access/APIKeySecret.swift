import Crypto
import Foundation

/// The text of an API key, `sk_` and 32 random bytes in base64url, shown once when it is
/// made; only its SHA-256 is stored. A key carries 256 bits of randomness, so a fast hash is
/// as safe as a slow one here, and a lookup costs microseconds.
public enum APIKeySecret {
    /// Every key's prefix.
    public static let prefix = "sk_"

    /// A new key's text.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return prefix + base64URL(bytes)
    }

    /// The stored digest of a key's (or `ADMIN_TOKEN`'s) text.
    public static func digest(of text: some StringProtocol) -> [UInt8] {
        Array(SHA256.hash(data: Array(text.utf8)))
    }

    private static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
