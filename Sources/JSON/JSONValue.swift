/// A JSON document as a tree, as `StrictJSONParser` produces it.
///
/// Numbers keep their source text (`JSONNumber`), so no digit is lost before a consumer
/// decides how to read it. Object members live in a dictionary: the parser rejects
/// duplicate keys, so nothing is merged silently. Iterate `keys.sorted()` for a stable order.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its literal text.
    case number(JSONNumber)
    /// A string, unescaped.
    case string(String)
    /// An array, in document order.
    case array([JSONValue])
    /// An object; keys are unique.
    case object([String: JSONValue])

    /// The member named `key` when this is an object and has one.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The members when this is an object.
    public var objectMembers: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return members
    }

    /// The string when this is a string.
    public var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// This object without the member `key` (e.g. `password` before a body is stored);
    /// any other value is returned unchanged.
    public func removingMember(_ key: String) -> JSONValue {
        guard case .object(var members) = self else { return self }
        members.removeValue(forKey: key)
        return .object(members)
    }
}
