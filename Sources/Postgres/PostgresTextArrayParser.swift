/// PostgreSQL's text output of a one-dimensional array (`{a,"b c",NULL}`), read back.
///
/// An element is quoted when it is empty, contains `{`, `}`, `,`, `"`, `\` or white space,
/// or reads `NULL`; inside quotes `\` escapes the next character. An unquoted `NULL` is SQL NULL.
enum PostgresTextArrayParser {
    /// The elements, `nil` for SQL NULL; nil when `text` is not a one-dimensional array.
    static func parse(_ text: String) -> [String?]? {
        var scalars = text.unicodeScalars[...]
        guard scalars.popFirst() == "{", scalars.popLast() == "}" else { return nil }
        var elements: [String?] = []
        guard !scalars.isEmpty else { return elements }
        while true {
            guard let element = element(from: &scalars) else { return nil }
            elements.append(element)
            guard let separator = scalars.popFirst() else { return elements }
            guard separator == "," else { return nil }
        }
    }

    /// One element and nothing after it; nil when it is malformed (or a nested array).
    private static func element(from scalars: inout Substring.UnicodeScalarView) -> String?? {
        var value = String.UnicodeScalarView()
        if scalars.first == "\"" {
            scalars.removeFirst()
            while let scalar = scalars.popFirst() {
                switch scalar {
                case "\"":
                    return .some(String(value))
                case "\\":
                    guard let escaped = scalars.popFirst() else { return nil }
                    value.append(escaped)
                default:
                    value.append(scalar)
                }
            }
            return nil
        }
        while let scalar = scalars.first, scalar != "," {
            guard scalar != "{", scalar != "}", scalar != "\"", scalar != "\\" else { return nil }
            value.append(scalar)
            scalars.removeFirst()
        }
        let text = String(value)
        guard !text.isEmpty else { return nil }
        return text.uppercased() == "NULL" ? .some(nil) : .some(text)
    }
}

extension Array: PostgresDecodable where Element == String {
    /// A `text[]` column without NULL elements.
    public init(postgresText: String?) throws {
        guard let text = postgresText else {
            throw PostgresDecodingFailure(reason: "NULL where [String] was expected")
        }
        guard let elements = PostgresTextArrayParser.parse(text), !elements.contains(nil) else {
            throw PostgresDecodingFailure(reason: "cannot read a one-dimensional text array without NULLs from the column's value")
        }
        self = elements.compactMap { $0 }
    }
}
