import Foundation

/// Where an app's status-change events go, and the secret that signs them.
public struct WebhookTarget: Sendable {
    /// The receiver's URL: `https://`, or `http://` to a loopback host.
    public let url: String
    /// The HMAC-SHA256 key (at least 32 characters); never logged.
    public let secret: Secret

    /// The shortest secret accepted.
    public static let minimumSecretLength = 32

    /// Creates a target from already validated values (tests); `validated` checks them.
    public init(url: String, secret: Secret) {
        self.url = url
        self.secret = secret
    }

    /// Validates a URL and secret read from `setting` (both or neither; nil when neither).
    static func validated(url: String?, secret: String?, setting: String, secretSetting: String) throws -> WebhookTarget? {
        switch (url, secret) {
        case (nil, nil):
            return nil
        case (_?, nil):
            throw ConfigurationError(secretSetting, "is not set, but \(setting) is: every webhook is signed")
        case (nil, _?):
            throw ConfigurationError(setting, "is not set, but \(secretSetting) is")
        case (let url?, let secret?):
            guard secret.count >= minimumSecretLength else {
                throw ConfigurationError(
                    secretSetting, "is too short: use at least \(minimumSecretLength) characters (e.g. `openssl rand -hex 32`)")
            }
            return WebhookTarget(url: try SettingsReader.validatedURL(url, setting: setting), secret: Secret(secret))
        }
    }
}
