import Foundation

/// The App Store environment a receipt, transaction or notification belongs to.
///
/// Production and sandbox data must never mix, so every stored row carries one.
public enum AppStoreEnvironment: String, Sendable, Codable, Hashable, CaseIterable {
    /// Real purchases (`Production`; v1 notifications say `PROD`).
    case production = "Production"
    /// Test purchases made with sandbox Apple IDs.
    case sandbox = "Sandbox"
    /// Purchases made with StoreKit Testing in Xcode, signed by the local certificate of a
    /// `.storekit` configuration: never from Apple, never looked up with Apple, and granting
    /// nothing unless the app accepts them (`xcode_certificate_file`).
    case xcode = "Xcode"

    /// The environments Apple's servers answer for.
    public static let apple: [AppStoreEnvironment] = [.production, .sandbox]

    /// Normalises Apple's spellings: `Production`, `PROD` and `Sandbox`, in any case. `Xcode`
    /// is not one of them: only a transaction verified against an app's Xcode certificate
    /// is given that environment.
    public init?(appleValue: String) {
        switch AppleWhitespace.trimmed(appleValue).lowercased() {
        case "production", "prod": self = .production
        case "sandbox": self = .sandbox
        default: return nil
        }
    }
}
