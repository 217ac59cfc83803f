/// The text of an API key, `sk_` and 32 random bytes in base64url, shown once when it is
/// made; only its SHA-256 is stored. A key carries 256 bits of randomness, so a fast hash is
/// as safe as a slow one here, and a lookup costs microseconds.
public enum APIKeySecret {
    /// Every key's prefix.
    public static let prefix = "sk_"

    /// A new key's text.
    public static func generate() -> String {
        prefix + RandomToken.generate()
    }

    /// The stored digest of a key's (or `ADMIN_TOKEN`'s) text.
    public static func digest(of text: some StringProtocol) -> [UInt8] {
        RandomToken.digest(of: text)
    }
}
