/// The blanks Apple pads values with, trimmed without a round trip through `NSString`.
///
/// The same set as Foundation's `CharacterSet.whitespaces`: the tab, Unicode's space
/// separators (general category Zs) and the zero-width space U+200B (once Zs, still in
/// Foundation's set), compared scalar by scalar, as `trimmingCharacters(in:)` does.
/// Intake reads several dozen fields of every notification this way, and bridging each to
/// `NSString` was a tenth of intake's CPU.
enum AppleWhitespace {
    /// Whether `scalar` is a tab, a space separator or the zero-width space.
    static func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0x200B: true
        case 0..<0x80: false
        default: scalar.properties.generalCategory == .spaceSeparator
        }
    }

    /// `text` without leading and trailing blanks, as a view into it (no copy).
    static func trimmed(_ text: String) -> Substring {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !contains($0) }),
            let last = scalars.lastIndex(where: { !contains($0) })
        else { return "" }
        // Scalar indices, not characters: a blank followed by a combining mark is trimmed
        // as Foundation trims it.
        return Substring(scalars[first...last])
    }

    /// Whether `text` is empty or all blanks.
    static func isBlank<S: StringProtocol>(_ text: S) -> Bool {
        text.unicodeScalars.allSatisfy(contains)
    }
}
