import AppStore
import Crypto
import Foundation

/// Content fingerprints: migration checksums and inbox dedupe keys.
public enum ContentHash {
    /// SHA-256 of the bytes, as lowercase hex.
    public static func sha256Hex(_ bytes: some DataProtocol) -> String {
        LowercaseHex.encode(SHA256.hash(data: bytes))
    }
}
