import AppStoreSignature
import Foundation

/// An app's App Store Server API credentials (App Store Connect › Users and Access ›
/// Integrations › In-App Purchase): the issuer id, the key id and the `.p8` private key.
/// The key never prints.
public struct AppStoreAPIKey: Sendable, CustomStringConvertible {
    /// The issuer id (a UUID) shown above the keys in App Store Connect.
    public let issuerID: String
    /// The key id (10 characters) of the In-App Purchase key.
    public let keyID: String
    /// The `.p8` file the key was read from.
    public let privateKeyFile: String
    /// The key's PEM text; for signing tokens only.
    public let privateKey: Secret

    /// Reads and checks the key file; `setting` names the variable in errors.
    static func load(issuerID: String, keyID: String, privateKeyFile: String, bundleID: String, setting: String) throws -> AppStoreAPIKey {
        let data = try SecretFile.read(privateKeyFile, setting: setting)
        guard let pem = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(setting, "names \(privateKeyFile), which cannot be read")
        }
        // Signing once proves the key is a P-256 PKCS#8 key before anything depends on it.
        do {
            _ = try AppStoreAPIToken(privateKeyPEM: pem, keyID: keyID, issuerID: issuerID, bundleID: bundleID).token()
        } catch {
            throw ConfigurationError(setting, "names \(privateKeyFile), which is not an App Store Connect .p8 (PKCS#8 P-256) private key")
        }
        return AppStoreAPIKey(issuerID: issuerID, keyID: keyID, privateKeyFile: privateKeyFile, privateKey: Secret(pem))
    }

    /// The three settings together, none of them, or an error naming what is missing.
    static func optional(
        issuerID: String?, keyID: String?, privateKeyFile: String?, bundleID: String,
        names: (issuer: String, key: String, file: String)
    ) throws -> AppStoreAPIKey? {
        switch (issuerID, keyID, privateKeyFile) {
        case (nil, nil, nil):
            return nil
        case (let issuer?, let key?, let file?):
            return try load(issuerID: issuer, keyID: key, privateKeyFile: file, bundleID: bundleID, setting: names.file)
        default:
            let missing = [(issuerID, names.issuer), (keyID, names.key), (privateKeyFile, names.file)].filter { $0.0 == nil }.map(\.1)
            throw ConfigurationError(
                missing[0],
                "is not set, but the other App Store Server API settings are (\(names.issuer), \(names.key) and \(names.file) go together)")
        }
    }

    public var description: String { "AppStoreAPIKey(issuer: \(issuerID), key: \(keyID), file: \(privateKeyFile))" }
}
