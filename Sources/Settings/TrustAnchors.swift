import AppStoreSignature
import Foundation
import Store

/// The roots Apple's signatures must chain to, each configured by its own setting and
/// bundled under `Certificates/`, searched for like `Schema/`.
public enum TrustAnchors {
    /// Signed payloads (v2 notifications, StoreKit 2 transactions, API answers): Apple Root CA – G3.
    public static let signedPayloads = Anchor(setting: "APPSTORE_ROOT_CERTIFICATES", bundledFile: "AppleRootCA-G3.pem")
    /// App receipts' PKCS#7 signatures: Apple Root CA (Apple Inc. Root).
    public static let appReceipts = Anchor(setting: "APPSTORE_RECEIPT_ROOT_CERTIFICATES", bundledFile: "AppleIncRootCertificate.pem")

    /// One kind of trust anchor.
    public struct Anchor: Sendable {
        /// The environment variable that replaces the bundled root.
        public let setting: String
        /// The bundled root's file name under `Certificates/`.
        public let bundledFile: String

        /// Loads the configured roots (`setting`'s value), or the bundled root when none are
        /// configured; a file that is missing or holds no certificate stops startup naming the setting.
        public func load(_ configured: String?) throws -> AppleRootCertificates {
            let paths: String
            if let configured {
                paths = configured
            } else {
                let candidates = InstalledResources.candidates("Certificates").map { $0.appendingPathComponent(bundledFile) }
                guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
                    throw ConfigurationError(
                        setting,
                        "is not set and the bundled Certificates/\(bundledFile) was not found (searched \(candidates.map(\.path).joined(separator: ", ")))"
                    )
                }
                paths = found.path
            }
            do {
                return try AppleRootCertificates(commaSeparatedPaths: paths)
            } catch {
                throw ConfigurationError(setting, "cannot be used: \(error)")
            }
        }
    }
}
