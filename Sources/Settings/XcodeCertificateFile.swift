import AppStoreSignature
import Foundation

/// Reads an app's `xcode_certificate_file`: the public certificate of its StoreKit
/// configuration, as Xcode saves it (DER, `.cer`) or as PEM.
enum XcodeCertificateFile {
    /// The certificate. Throws a ``ConfigurationError`` for `setting` when the file cannot be
    /// read or holds no P-256 certificate.
    static func load(_ path: String, setting: String) throws -> XcodeTransactionCertificate {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(setting, "names \(path), which cannot be read")
        }
        guard let certificate = XcodeTransactionCertificate(contents: Array(data)) else {
            throw ConfigurationError(
                setting,
                "names \(path), which holds no P-256 certificate: save it from the .storekit file in Xcode (Editor > Save Public Certificate)"
            )
        }
        return certificate
    }
}
