import HummingbirdBcrypt

/// A console user's password: checked for length, kept only as a bcrypt hash
/// (hummingbird-auth's), verified against it.
public enum ConsolePassword {
    /// The shortest password taken.
    public static let minimumLength = 12
    /// The longest (bcrypt reads 72 bytes; a longer one would be cut without a word).
    public static let maximumBytes = 72
    /// bcrypt's cost: 2^12 rounds, about a quarter of a second here.
    public static let cost: UInt8 = 12

    /// Why `password` is refused, or nil when it is taken.
    public static func problem(_ password: String) -> String? {
        if password.count < minimumLength { return "a password needs at least \(minimumLength) characters" }
        if password.utf8.count > maximumBytes { return "a password may have at most \(maximumBytes) bytes" }
        if password.contains(where: { $0.isNewline }) { return "a password cannot hold a line break" }
        return nil
    }

    /// The bcrypt hash of `password` (salted: two hashes of one password differ).
    public static func hash(_ password: String, cost: UInt8 = cost) -> String {
        Bcrypt.hash(password, cost: cost)
    }

    /// True when `password` is the one `hash` was made from.
    public static func verify(_ password: String, hash: String) -> Bool {
        Bcrypt.verify(password, hash: hash)
    }
}
