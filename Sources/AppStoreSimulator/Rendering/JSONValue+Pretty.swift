extension JSONValue {
    /// Indented JSON text for people (two spaces, one member per line).
    func prettyText(indent: Int = 0) -> String {
        let pad = String(repeating: "  ", count: indent + 1)
        let closing = String(repeating: "  ", count: indent)
        switch self {
        case .array(let items) where !items.isEmpty:
            let lines = items.map { pad + $0.prettyText(indent: indent + 1) }
            return "[\n" + lines.joined(separator: ",\n") + "\n" + closing + "]"
        case .object(let members) where !members.isEmpty:
            let lines = members.map { key, value in
                pad + JSONValue.string(key).serialized() + ": " + value.prettyText(indent: indent + 1)
            }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + closing + "}"
        default:
            return serialized()
        }
    }
}

extension Optional where Wrapped == String {
    /// The string, or JSON `null`.
    var json: JSONValue {
        map(JSONValue.string) ?? .null
    }
}
