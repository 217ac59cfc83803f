import Foundation

/// The secret texts of one webhook as configured, newest first, with the setting they came
/// from: `WEBHOOK_SECRET` or `WEBHOOK_SECRETS` (comma-separated), or an app's `webhook_secret`,
/// `webhook_secrets` or `webhook_secret_file` (one secret a line). One way per webhook (two at
/// once stop startup naming both: which of them signs would be a guess).
struct WebhookSecretTexts {
    /// Where the secrets were read.
    let setting: String
    /// The secrets, newest first; several is a rotation.
    let values: [String]
    /// True when they came from a list (its entries are then named by position).
    let isList: Bool

    /// `WEBHOOK_SECRETS=new,old`: entries split at commas, surrounding spaces dropped.
    static func commaSeparated(_ text: String?, setting: String) -> WebhookSecretTexts? {
        text.map { text in
            WebhookSecretTexts(
                setting: setting,
                values: text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) },
                isList: true)
        }
    }

    /// A file of secrets, one a line, newest first (blank lines ignored), readable by its owner
    /// (and group) alone, as every secret file.
    static func file(_ path: String?, setting: String) throws -> WebhookSecretTexts? {
        guard let path else { return nil }
        let contents = try SecretFile.read(path, setting: setting)
        guard let text = String(data: contents, encoding: .utf8) else {
            throw ConfigurationError(setting, "names \(path), which is not UTF-8 text")
        }
        let values = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !values.isEmpty else { throw ConfigurationError(setting, "names \(path), which holds no secret") }
        return WebhookSecretTexts(setting: setting, values: values, isList: true)
    }

    /// Each secret checked, newest first; an entry of a list is named by its position.
    func checked() throws -> [WebhookSecret] {
        try values.enumerated().map { index, value in
            try WebhookSecret(value, setting: isList ? "\(setting) (secret \(index + 1) of \(values.count))" : setting)
        }
    }
}
