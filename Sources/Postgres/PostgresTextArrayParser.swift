/// PostgreSQL's text output of a one-dimensional array (`{a,"b c",NULL}`), read back.
///
/// An element is quoted when it is empty, contains `{`, `}`, `,`, `"`, `\` or white space,
/// or reads `NULL`; inside quotes `\` escapes the next character. An unquoted `NULL` is SQL NULL.
enum PostgresTextArrayParser {
    /// The elements, `nil` for SQL NULL; nil when `text` is not a one-dimensional array.
    ///
    /// Read over UTF-8 bytes: every character with a meaning here is ASCII, and no byte of a
    /// multi-byte sequence is ASCII, so an element's bytes between its delimiters are exact.
    static func parse(_ text: String) -> [String?]? {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= 2, bytes[0] == UInt8(ascii: "{"), bytes[bytes.count - 1] == UInt8(ascii: "}") else { return nil }
            var elements: [String?] = []
            var index = 1
            let end = bytes.count - 1
            guard index < end else { return elements }
            while true {
                guard let element = element(bytes, from: &index, end: end) else { return nil }
                elements.append(element)
                guard index < end else { return elements }
                guard bytes[index] == UInt8(ascii: ",") else { return nil }
                index += 1
            }
        }
    }

    /// One element starting at `index` and nothing after it; nil when it is malformed (or a
    /// nested array). Leaves `index` after the element.
    private static func element(_ bytes: UnsafeBufferPointer<UInt8>, from index: inout Int, end: Int) -> String?? {
        if index < end, bytes[index] == UInt8(ascii: "\"") {
            index += 1
            var value: [UInt8] = []
            while index < end {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return .some(String(decoding: value, as: UTF8.self))
                case UInt8(ascii: "\\"):
                    guard index < end else { return nil }
                    value.append(bytes[index])
                    index += 1
                default:
                    value.append(byte)
                }
            }
            return nil
        }
        let start = index
        while index < end, bytes[index] != UInt8(ascii: ",") {
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "\""), UInt8(ascii: "\\"): return nil
            default: index += 1
            }
        }
        guard index > start else { return nil }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
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
