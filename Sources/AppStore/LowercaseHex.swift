/// Lowercase hexadecimal text of bytes, two digits a byte: how digests are spelled where
/// they are stored or compared as text (certificate chain ids `sha256:<hex>`, inbox dedupe
/// keys, migration checksums, webhook signatures, API key digests).
public enum LowercaseHex {
    /// `bytes` as lowercase hex: one table look-up a digit into storage sized up front.
    /// Building a `String` or `Character` per byte, as this replaced, cost more than hashing
    /// the certificate chains it names (docs/performance.md, intake).
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        // At least a SHA-256 digest's 32 bytes: a digest, as a sequence, does not say its length.
        text.reserveCapacity(Swift.max(bytes.underestimatedCount, 32) * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)
}
