import Foundation

/// One app whose notifications we accept: its bundle id, and what authenticates it — a
/// shared secret (version 1), its numeric Apple ID (version 2 in Production), or both.
public struct AppCredentials: Sendable {
    /// The app's bundle identifier (`bid` in v1 notifications, `bundleId` in v2).
    public let bundleID: String
    /// The app-specific shared secret (`password` in v1 notifications and verifyReceipt
    /// requests); nil for an app that only sends version 2.
    public let sharedSecret: Secret?
    /// The app's Apple ID (`appAppleId`), required to accept Production v2 notifications.
    public let appAppleID: String?
    /// Where its status-change events go (nil: no webhook).
    public let webhook: WebhookTarget?
    /// Its App Store Server API key (nil: v2 works from signed payloads alone).
    public let apiKey: AppStoreAPIKey?

    /// Creates credentials for one app.
    public init(
        bundleID: String, sharedSecret: Secret?, appAppleID: String? = nil, webhook: WebhookTarget? = nil, apiKey: AppStoreAPIKey? = nil
    ) {
        self.bundleID = bundleID
        self.sharedSecret = sharedSecret
        self.appAppleID = appAppleID
        self.webhook = webhook
        self.apiKey = apiKey
    }

    /// The same app with another webhook target.
    func with(webhook: WebhookTarget?) -> AppCredentials {
        AppCredentials(bundleID: bundleID, sharedSecret: sharedSecret, appAppleID: appAppleID, webhook: webhook, apiKey: apiKey)
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

/// The `SUBSCRIPTIOND_CONFIG` file:
/// `{"apps":[{"bundle_id", "shared_secret" or "shared_secret_file", "app_apple_id", "webhook_url", "webhook_secret",
/// "issuer_id", "key_id", "private_key_file"}]}`.
struct ConfigurationFile: Decodable {
    struct App: Decodable {
        let bundleID: String
        let sharedSecret: String?
        let sharedSecretFile: String?
        let appAppleID: String?
        let webhookURL: String?
        let webhookSecret: String?
        let issuerID: String?
        let keyID: String?
        let privateKeyFile: String?

        enum CodingKeys: String, CodingKey {
            case bundleID = "bundle_id", sharedSecret = "shared_secret", sharedSecretFile = "shared_secret_file"
            case appAppleID = "app_apple_id", webhookURL = "webhook_url", webhookSecret = "webhook_secret"
            case issuerID = "issuer_id", keyID = "key_id", privateKeyFile = "private_key_file"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            bundleID = try container.decode(String.self, forKey: .bundleID)
            sharedSecret = try container.decodeIfPresent(String.self, forKey: .sharedSecret)
            sharedSecretFile = try container.decodeIfPresent(String.self, forKey: .sharedSecretFile)
            webhookURL = try container.decodeIfPresent(String.self, forKey: .webhookURL)
            webhookSecret = try container.decodeIfPresent(String.self, forKey: .webhookSecret)
            issuerID = try container.decodeIfPresent(String.self, forKey: .issuerID)
            keyID = try container.decodeIfPresent(String.self, forKey: .keyID)
            privateKeyFile = try container.decodeIfPresent(String.self, forKey: .privateKeyFile)
            // App Store Connect shows the Apple ID as a number; accept it as one or as text.
            if let number = try? container.decodeIfPresent(UInt64.self, forKey: .appAppleID) {
                appAppleID = String(number)
            } else {
                appAppleID = try container.decodeIfPresent(String.self, forKey: .appAppleID)
            }
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
            throw ConfigurationError(setting, "file \(path) is not valid: expected {\"apps\":[{\"bundle_id\":…,\"shared_secret\":…,\"app_apple_id\":…}]}")
        }
        return try file.apps.map { app in
            guard !app.bundleID.isEmpty else { throw ConfigurationError(setting, "has an app with an empty bundle_id") }
            let appleID = try app.appAppleID.map { try AppAppleID.validated($0, setting: setting) }
            let webhook = try WebhookTarget.validated(
                url: app.webhookURL, secret: app.webhookSecret,
                setting: "\(setting) webhook_url of \(app.bundleID)", secretSetting: "\(setting) webhook_secret of \(app.bundleID)")
            let apiKey = try AppStoreAPIKey.optional(
                issuerID: app.issuerID, keyID: app.keyID, privateKeyFile: app.privateKeyFile, bundleID: app.bundleID,
                names: ("\(setting) issuer_id of \(app.bundleID)", "\(setting) key_id of \(app.bundleID)", "\(setting) private_key_file of \(app.bundleID)"))
            let base = try credentials(app, appleID: appleID, setting: setting)
            return AppCredentials(bundleID: base.bundleID, sharedSecret: base.sharedSecret, appAppleID: base.appAppleID, webhook: webhook, apiKey: apiKey)
        }
    }

    private static func credentials(_ app: App, appleID: String?, setting: String) throws -> AppCredentials {
        switch (app.sharedSecret, app.sharedSecretFile) {
        case (let secret?, nil):
            guard !secret.isEmpty else { throw ConfigurationError(setting, "app \(app.bundleID) has an empty shared_secret") }
            return AppCredentials(bundleID: app.bundleID, sharedSecret: Secret(secret), appAppleID: appleID)
        case (nil, let secretPath?):
            guard let contents = FileManager.default.contents(atPath: secretPath),
                  let secret = String(data: contents, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
                  !secret.isEmpty
            else { throw ConfigurationError(setting, "app \(app.bundleID): shared_secret_file \(secretPath) cannot be read or is empty") }
            return AppCredentials(bundleID: app.bundleID, sharedSecret: Secret(secret), appAppleID: appleID)
        case (_?, _?):
            throw ConfigurationError(setting, "app \(app.bundleID) sets both shared_secret and shared_secret_file")
        case (nil, nil):
            // A version 2 app: signed payloads need no secret.
            return AppCredentials(bundleID: app.bundleID, sharedSecret: nil, appAppleID: appleID)
        }
    }
}

/// The app's numeric Apple ID, as configured.
enum AppAppleID {
    /// The digits, or an error naming the setting.
    static func validated(_ text: String, setting: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 20, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ConfigurationError(setting, "app_apple_id must be the app's numeric Apple ID (App Store Connect › App Information), got '\(text)'")
        }
        return trimmed
    }
}
