import Foundation

/// The app's numeric Apple ID, as configured.
enum AppAppleID {
    /// The digits, or an error naming the setting.
    static func validated(_ text: String, setting: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 20, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ConfigurationError(
                setting, "app_apple_id must be the app's numeric Apple ID (App Store Connect › App Information), got '\(text)'")
        }
        return trimmed
    }
}
