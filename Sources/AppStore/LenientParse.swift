import Foundation

/// Parsing of the string forms Apple uses for booleans.
enum LenientParse {
    /// `"true"`/`"false"`, `"1"`/`"0"`, `"yes"`/`"no"` in any case; anything else is `nil`.
    static func bool(_ text: String) -> Bool? {
        switch AppleWhitespace.trimmed(text).lowercased() {
        case "true", "1", "yes": true
        case "false", "0", "no": false
        default: nil
        }
    }
}
