import Foundation

/// Where an app's status-change events go, and the secrets that sign them.
public struct WebhookTarget: Sendable {
    /// The receiver's URL: `https://`, or `http://` to a loopback host.
    public let url: String
    /// The secrets every delivery is signed with, newest first: one, or during a rotation the
    /// new one and those it replaces (each header then carries one signature per secret).
    /// Never empty; never logged.
    public let secrets: [WebhookSecret]

    /// Creates a target signed with `secret` and, during a rotation, with the `older` secrets too.
    public init(url: String, secret: WebhookSecret, older: [WebhookSecret] = []) {
        self.url = url
        self.secrets = [secret] + older
    }

    /// Validates a URL read from `setting` and the secrets given with it (both or neither;
    /// nil when neither). `secretSetting` names the secret when none is given.
    static func validated(url: String?, secrets: WebhookSecretTexts?, setting: String, secretSetting: String) throws -> WebhookTarget? {
        switch (url, secrets) {
        case (nil, nil):
            return nil
        case (_?, nil):
            throw ConfigurationError(secretSetting, "is not set, but \(setting) is: every webhook is signed")
        case (nil, let secrets?):
            throw ConfigurationError(setting, "is not set, but \(secrets.setting) is")
        case (let url?, let secrets?):
            let checked = try secrets.checked()
            guard let newest = checked.first else {
                throw ConfigurationError(secrets.setting, "is an empty list: give the secret that signs, then any it replaces")
            }
            return WebhookTarget(
                url: try SettingsReader.validatedURL(url, setting: setting), secret: newest, older: Array(checked.dropFirst()))
        }
    }
}
