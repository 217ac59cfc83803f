import AppStoreSignature
import Foundation
import Store

/// The roots every signed payload must chain to (`APPSTORE_ROOT_CERTIFICATES`).
public enum TrustAnchors {
    /// The bundled Apple Root CA – G3, searched for like `Schema/`.
    public static let bundledFile = "AppleRootCA-G3.pem"

    /// Loads the configured roots, or the bundled G3 root when none are configured; a file
    /// that is missing or holds no certificate stops startup naming the setting.
    public static func load(_ setting: String?) throws -> AppleRootCertificates {
        let paths: String
        if let setting {
            paths = setting
        } else {
            let candidates = InstalledResources.candidates("Certificates").map { $0.appendingPathComponent(bundledFile) }
            guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
                throw ConfigurationError("APPSTORE_ROOT_CERTIFICATES", "is not set and the bundled Certificates/\(bundledFile) was not found (searched \(candidates.map(\.path).joined(separator: ", ")))")
            }
            paths = found.path
        }
        do {
            return try AppleRootCertificates(commaSeparatedPaths: paths)
        } catch {
            throw ConfigurationError("APPSTORE_ROOT_CERTIFICATES", "cannot be used: \(error)")
        }
    }
}
