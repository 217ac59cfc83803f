import Crypto
import Foundation

/// Content fingerprints: migration checksums and inbox dedupe keys.
public enum ContentHash {
    /// SHA-256 of the bytes, as lowercase hex.
    public static func sha256Hex(_ bytes: some DataProtocol) -> String {
        let digits = Array("0123456789abcdef".utf8)
        // Laid out by hand: this runs once per intake request, and String(format:) per
        // byte cost more than the hash itself.
        return String(unsafeUninitializedCapacity: SHA256.byteCount * 2) { buffer in
            var index = 0
            for byte in SHA256.hash(data: bytes) {
                buffer[index] = digits[Int(byte >> 4)]
                buffer[index + 1] = digits[Int(byte & 0x0f)]
                index += 2
            }
            return index
        }
    }
}
