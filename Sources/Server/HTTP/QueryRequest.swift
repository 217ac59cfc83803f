import AppStore
import Hummingbird
import JSON

/// Reads a `/v1` JSON request body into its members, with the contract's 400/413/415 errors.
///
/// Parsed by `StrictJSONParser`, as notification bodies are: a repeated key, invalid UTF-8
/// or nesting deeper than 64 is a 400, not a guess at what was meant.
enum QueryRequest {
    static func object(_ request: Request, maxBytes: Int) async throws -> [String: JSONValue] {
        let body = try await RequestBody.json(request, maxBytes: maxBytes)
        guard let object = (try? StrictJSONParser.parse(body))?.objectMembers else {
            throw APIError.malformed("the body must be a JSON object")
        }
        return object
    }

    /// A required non-empty string field of at most `maxLength` characters.
    static func string(_ object: [String: JSONValue], _ key: String, maxLength: Int = 512) throws -> String {
        guard let value = object[key]?.stringValue, !value.isEmpty else {
            throw APIError.malformed("\(key) is required (a non-empty string)")
        }
        guard value.count <= maxLength else { throw APIError.malformed("\(key) is longer than \(maxLength) characters") }
        guard !value.unicodeScalars.contains("\u{0}") else { throw APIError.malformed("\(key) contains a NUL character") }
        return value
    }

    /// An optional string field; present but not a non-empty string is an error.
    static func optionalString(_ object: [String: JSONValue], _ key: String, maxLength: Int = 512) throws -> String? {
        guard let value = object[key], value != .null else { return nil }
        return try string(object, key, maxLength: maxLength)
    }

    /// An optional boolean field (absent or null: false); anything else is an error.
    static func flag(_ object: [String: JSONValue], _ key: String) throws -> Bool {
        switch object[key] {
        case nil, .null?: return false
        case .bool(let value)?: return value
        default: throw APIError.malformed("\(key) must be true or false")
        }
    }

    /// A field holding a list of strings, or nil when it is anything else.
    static func strings(_ object: [String: JSONValue], _ key: String) -> [String]? {
        guard case .array(let elements)? = object[key] else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            guard let string = element.stringValue else { return nil }
            strings.append(string)
        }
        return strings
    }
}
