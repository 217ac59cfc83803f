/// Escaping for text placed in HTML (elements and double- or single-quoted attributes), as
/// the templates escape every `{{value}}`: for the markup the server draws itself (charts).
public enum HTML {
    /// `text` with `&`, `<`, `>`, `"` and `'` escaped.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
