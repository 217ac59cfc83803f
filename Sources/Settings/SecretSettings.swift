import Foundation

/// The settings that hold secrets, each of which may instead name a file that holds it:
/// `ADMIN_TOKEN_FILE=/etc/subscriptiond/admin_token`, or a systemd credential
/// (`LoadCredential=admin_token:…` with `ADMIN_TOKEN_FILE=%d/admin_token`), so a secret need
/// not sit in an environment that `/proc/PID/environ`, crash reports and child processes see.
public enum SecretSettings {
    /// The secret settings, in the order of ``ServiceConfiguration/variables``.
    public static let names = [
        "DATABASE_URL", "DATABASE_READ_URL", "APPSTORE_SHARED_SECRET", "ADMIN_TOKEN", "METRICS_TOKEN", "WEBHOOK_SECRET",
        "WEBHOOK_SECRETS",
    ]

    /// The variable naming the file of a secret setting: its name and `_FILE`.
    public static func fileVariable(_ name: String) -> String { name + "_FILE" }

    /// The `*_FILE` variables, one per secret setting.
    public static var fileVariables: [String] { names.map(fileVariable) }

    /// `environment` with each `NAME_FILE` replaced by `NAME`, read from the file: one
    /// trailing newline is dropped, and `WEBHOOK_SECRETS_FILE` may hold one secret a line.
    /// Throws a ``ConfigurationError`` naming both variables when both are set, and one
    /// naming the variable and the path when the file cannot be read, may be read by other
    /// users, or is empty; never one that quotes the file's contents.
    public static func resolve(_ environment: [String: String]) throws -> [String: String] {
        var resolved = environment
        for name in names {
            let fileVariable = fileVariable(name)
            guard let path = environment[fileVariable], !path.isEmpty else {
                resolved[fileVariable] = nil
                continue
            }
            if let value = environment[name], !value.isEmpty {
                throw ConfigurationError(
                    name, "and \(fileVariable) are both set: keep one (\(fileVariable) names a file holding the value)")
            }
            var value = try read(path, setting: fileVariable)
            if name == "WEBHOOK_SECRETS" {
                value = value.split(whereSeparator: \.isNewline).joined(separator: ",")
            }
            resolved[name] = value
            resolved[fileVariable] = nil
        }
        return resolved
    }

    /// The text of a secret file, without one trailing newline (`echo` and editors add it).
    static func read(_ path: String, setting: String) throws -> String {
        let data = try SecretFile.read(path, setting: setting)
        guard var text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(setting, "names \(path), which is not UTF-8 text")
        }
        // "\r\n" is one Character, so either ending is one removeLast().
        if text.hasSuffix("\r\n") || text.hasSuffix("\n") { text.removeLast() }
        guard !text.isEmpty else { throw ConfigurationError(setting, "names \(path), which is empty") }
        return text
    }
}
