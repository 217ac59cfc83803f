import Foundation
import Logging

/// Reads typed settings from environment-style key/value pairs, with defaults, turning
/// every malformed value into a `ConfigurationError` that names the variable.
public struct SettingsReader: Sendable {
    private let environment: [String: String]
    private let defaults: [String: String]

    /// Creates a reader over `environment`, falling back to `defaults` for absent or empty values.
    public init(environment: [String: String], defaults: [(name: String, defaultValue: String?)]) {
        self.environment = environment
        var table: [String: String] = [:]
        for (name, value) in defaults { if let value { table[name] = value } }
        self.defaults = table
    }

    /// The value, or its default; nil when neither is set. Empty counts as unset.
    public func string(_ name: String) -> String? {
        if let value = environment[name], !value.isEmpty { return value }
        return defaults[name]
    }

    /// The value, or an error when it is unset.
    public func required(_ name: String) throws -> String {
        guard let value = string(name) else { throw ConfigurationError(name, "is not set") }
        return value
    }

    /// An integer within `range`.
    public func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int {
        let text = try required(name)
        guard let value = Int(text), range.contains(value) else {
            throw ConfigurationError(name, "must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// An `https://` URL, or an `http://` one to a loopback host (a local stand-in such as
    /// appstore-sim): anywhere else a plain-text URL would carry secrets in clear.
    public func upstreamURL(_ name: String) throws -> String {
        try Self.validatedURL(try required(name), setting: name)
    }

    /// The `upstreamURL` rule applied to a value read from anywhere (a configuration file).
    static func validatedURL(_ text: String, setting name: String) throws -> String {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
              scheme == "https" || scheme == "http"
        else {
            throw ConfigurationError(name, "must be an https:// URL, got '\(text)'")
        }
        if scheme == "http" && !LoopbackHost.contains(host) {
            throw ConfigurationError(name, "must use https:// (http:// is only allowed to 127.0.0.1, ::1 or localhost), got '\(text)'")
        }
        return text
    }

    /// `true` or `false` (also `1`/`0`, `yes`/`no`).
    public func boolean(_ name: String) throws -> Bool {
        let text = try required(name)
        switch text.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw ConfigurationError(name, "must be true or false, got '\(text)'")
        }
    }

    /// A bearer token of at least 16 characters, or nil when unset.
    public func token(_ name: String) throws -> String? {
        guard let token = string(name) else { return nil }
        guard token.count >= 16 else {
            throw ConfigurationError(name, "is too short: use at least 16 characters (e.g. `openssl rand -hex 32`)")
        }
        return token
    }

    /// One of an enumeration's raw values.
    public func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, _ type: Choice.Type) throws -> Choice
    where Choice.RawValue == String {
        let text = try required(name)
        guard let value = Choice(rawValue: text.lowercased()) else {
            let allowed = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError(name, "must be one of \(allowed), got '\(text)'")
        }
        return value
    }

    /// A swift-log level (`trace` … `critical`).
    public func logLevel(_ name: String) throws -> Logger.Level {
        let text = try required(name)
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw ConfigurationError(name, "must be one of trace, debug, info, notice, warning, error, critical, got '\(text)'")
        }
        return level
    }
}


/// Builds the app registry from `SUBSCRIPTIOND_CONFIG` and/or the single-app shortcut
/// (`APPSTORE_BUNDLE_ID` with `APPSTORE_SHARED_SECRET` and/or `APPSTORE_APP_APPLE_ID`).
/// Both sources merge per bundle id; a contradiction stops startup naming both.
enum AppRegistryLoader {
    static func load(_ reader: SettingsReader) throws -> AppRegistry {
        var apps: [AppCredentials] = []
        if let path = reader.string("SUBSCRIPTIOND_CONFIG") {
            apps = try ConfigurationFile.load(path: path)
        }
        let secret = reader.string("APPSTORE_SHARED_SECRET")
        let appleID = try reader.string("APPSTORE_APP_APPLE_ID").map { try AppAppleID.validated($0, setting: "APPSTORE_APP_APPLE_ID") }
        let apiSettings = (reader.string("APPSTORE_ISSUER_ID"), reader.string("APPSTORE_KEY_ID"), reader.string("APPSTORE_PRIVATE_KEY_FILE"))
        if let bundleID = reader.string("APPSTORE_BUNDLE_ID") {
            let apiKey = try AppStoreAPIKey.optional(
                issuerID: apiSettings.0, keyID: apiSettings.1, privateKeyFile: apiSettings.2, bundleID: bundleID,
                names: ("APPSTORE_ISSUER_ID", "APPSTORE_KEY_ID", "APPSTORE_PRIVATE_KEY_FILE"))
            apps.append(AppCredentials(bundleID: bundleID, sharedSecret: secret.map(Secret.init), appAppleID: appleID, apiKey: apiKey))
        } else if secret != nil {
            throw ConfigurationError("APPSTORE_BUNDLE_ID", "is not set, but APPSTORE_SHARED_SECRET is")
        } else if appleID != nil {
            throw ConfigurationError("APPSTORE_BUNDLE_ID", "is not set, but APPSTORE_APP_APPLE_ID is")
        } else if apiSettings.0 != nil || apiSettings.1 != nil || apiSettings.2 != nil {
            throw ConfigurationError("APPSTORE_BUNDLE_ID", "is not set, but App Store Server API settings (APPSTORE_ISSUER_ID …) are")
        }
        // WEBHOOK_URL / WEBHOOK_SECRET: every app without a webhook of its own uses them.
        let defaultWebhook = try WebhookTarget.validated(
            url: reader.string("WEBHOOK_URL"), secret: reader.string("WEBHOOK_SECRET"), setting: "WEBHOOK_URL", secretSetting: "WEBHOOK_SECRET")
        let registry = AppRegistry(try merged(apps).map { $0.webhook == nil ? $0.with(webhook: defaultWebhook) : $0 })
        guard !registry.isEmpty else {
            throw ConfigurationError("APPSTORE_BUNDLE_ID", "is not set: configure at least one app (APPSTORE_BUNDLE_ID with APPSTORE_SHARED_SECRET and/or APPSTORE_APP_APPLE_ID, or SUBSCRIPTIOND_CONFIG)")
        }
        return registry
    }

    /// One entry per bundle id, each field taken from whichever source sets it.
    private static func merged(_ apps: [AppCredentials]) throws -> [AppCredentials] {
        var byBundleID: [String: AppCredentials] = [:]
        var order: [String] = []
        for app in apps {
            guard let earlier = byBundleID[app.bundleID] else {
                byBundleID[app.bundleID] = app
                order.append(app.bundleID)
                continue
            }
            if let a = earlier.sharedSecret, let b = app.sharedSecret, !a.matches(b.revealed) {
                throw ConfigurationError("APPSTORE_SHARED_SECRET", "and SUBSCRIPTIOND_CONFIG give two different shared secrets for \(app.bundleID)")
            }
            if let a = earlier.appAppleID, let b = app.appAppleID, a != b {
                throw ConfigurationError("APPSTORE_APP_APPLE_ID", "and SUBSCRIPTIOND_CONFIG give two different app_apple_id values for \(app.bundleID) (\(a), \(b))")
            }
            if let a = earlier.apiKey, let b = app.apiKey, a.keyID != b.keyID || a.issuerID != b.issuerID {
                throw ConfigurationError("APPSTORE_KEY_ID", "and SUBSCRIPTIOND_CONFIG give two different App Store Server API keys for \(app.bundleID)")
            }
            byBundleID[app.bundleID] = AppCredentials(
                bundleID: app.bundleID, sharedSecret: earlier.sharedSecret ?? app.sharedSecret, appAppleID: earlier.appAppleID ?? app.appAppleID,
                webhook: earlier.webhook ?? app.webhook, apiKey: earlier.apiKey ?? app.apiKey)
        }
        return order.compactMap { byBundleID[$0] }
    }
}
