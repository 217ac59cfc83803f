import Foundation

/// Parsing of the string forms Apple uses for booleans and millisecond timestamps.
enum LenientParse {
    /// `"true"`/`"false"`, `"1"`/`"0"`, `"yes"`/`"no"` in any case; anything else is `nil`.
    static func bool(_ text: String) -> Bool? {
        switch AppleWhitespace.trimmed(text).lowercased() {
        case "true", "1", "yes": true
        case "false", "0", "no": false
        default: nil
        }
    }

    /// Milliseconds since 1970 from a decimal string; `nil` for text that is not a number.
    static func millis(_ text: String) -> Double? {
        let trimmed = AppleWhitespace.trimmed(text)
        guard !trimmed.isEmpty,
              trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let value = Double(trimmed)
        else { return nil }
        return value
    }
}
