import Foundation

/// The App Store environment a receipt, transaction or notification belongs to.
///
/// Production and sandbox data must never mix, so every stored row carries one.
public enum AppStoreEnvironment: String, Sendable, Codable, Hashable, CaseIterable {
    /// Real purchases (`Production`; v1 notifications say `PROD`).
    case production = "Production"
    /// Test purchases made with sandbox Apple IDs.
    case sandbox = "Sandbox"

    /// Normalises Apple's spellings: `Production`, `PROD` and `Sandbox`, in any case.
    public init?(appleValue: String) {
        switch AppleWhitespace.trimmed(appleValue).lowercased() {
        case "production", "prod": self = .production
        case "sandbox": self = .sandbox
        default: return nil
        }
    }
}
