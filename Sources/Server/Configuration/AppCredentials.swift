import Foundation

/// One app whose notifications we accept: its bundle id and App Store shared secret.
public struct AppCredentials: Sendable {
    /// The app's bundle identifier (`bid` in notifications).
    public let bundleID: String
    /// The app-specific shared secret (`password` in notifications and verifyReceipt requests).
    public let sharedSecret: Secret

    /// Creates credentials for one app.
    public init(bundleID: String, sharedSecret: Secret) {
        self.bundleID = bundleID
        self.sharedSecret = sharedSecret
    }
}

/// The configured apps, looked up by bundle id.
public struct AppRegistry: Sendable {
    private let appsByBundleID: [String: AppCredentials]

    /// Creates a registry; bundle ids must be unique.
    public init(_ apps: [AppCredentials]) {
        self.appsByBundleID = Dictionary(apps.map { ($0.bundleID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The app with this bundle id, if configured.
    public func app(bundleID: String) -> AppCredentials? { appsByBundleID[bundleID] }

    /// Every configured bundle id, sorted.
    public var bundleIDs: [String] { appsByBundleID.keys.sorted() }

    /// True when no app is configured.
    public var isEmpty: Bool { appsByBundleID.isEmpty }
}

/// The `SUBSCRIPTIOND_CONFIG` file: `{"apps":[{"bundle_id","shared_secret" or "shared_secret_file"}]}`.
struct ConfigurationFile: Decodable {
    struct App: Decodable {
        let bundleID: String
        let sharedSecret: String?
        let sharedSecretFile: String?

        enum CodingKeys: String, CodingKey {
            case bundleID = "bundle_id", sharedSecret = "shared_secret", sharedSecretFile = "shared_secret_file"
        }
    }

    let apps: [App]

    /// Reads and validates the file, resolving `shared_secret_file` entries.
    static func load(path: String) throws -> [AppCredentials] {
        let setting = "SUBSCRIPTIOND_CONFIG"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(setting, "names \(path), which cannot be read")
        }
        let file: ConfigurationFile
        do {
            file = try JSONDecoder().decode(ConfigurationFile.self, from: data)
        } catch {
            throw ConfigurationError(setting, "file \(path) is not valid: expected {\"apps\":[{\"bundle_id\":…,\"shared_secret\":…}]}")
        }
        return try file.apps.map { app in
            guard !app.bundleID.isEmpty else { throw ConfigurationError(setting, "has an app with an empty bundle_id") }
            switch (app.sharedSecret, app.sharedSecretFile) {
            case (let secret?, nil) where !secret.isEmpty:
                return AppCredentials(bundleID: app.bundleID, sharedSecret: Secret(secret))
            case (nil, let secretPath?):
                guard let contents = FileManager.default.contents(atPath: secretPath),
                      let secret = String(data: contents, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
                      !secret.isEmpty
                else { throw ConfigurationError(setting, "app \(app.bundleID): shared_secret_file \(secretPath) cannot be read or is empty") }
                return AppCredentials(bundleID: app.bundleID, sharedSecret: Secret(secret))
            case (_?, _?):
                throw ConfigurationError(setting, "app \(app.bundleID) sets both shared_secret and shared_secret_file")
            default:
                throw ConfigurationError(setting, "app \(app.bundleID) has no shared_secret or shared_secret_file")
            }
        }
    }
}
