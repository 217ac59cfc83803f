/// A `text[]` parameter whose elements may be NULL, for `unnest($1::text[], …)` batches.
///
/// Sent as an array literal in which every element is quoted (commas, braces, spaces, the
/// text `NULL` and empty strings stay data) and nil is the unquoted `NULL`. Built on UTF-8
/// bytes: `"` and `\` are ASCII and never part of a multi-byte sequence, so escaping them
/// byte by byte is exact, and a large batch is laid out in one pass.
public struct PostgresTextArray: PostgresEncodable, Equatable {
    /// The elements, nil for SQL NULL.
    public var elements: [String?]

    /// Wraps the elements.
    public init(_ elements: [String?]) {
        self.elements = elements
    }

    /// The elements' text input forms, for an array of another type (`$1::bigint[]`,
    /// `$1::timestamptz[]`, `$1::bytea[]`); nil and NULL values are SQL NULL, and bytes are
    /// written in `bytea`'s hex input form.
    public init<Element: PostgresEncodable>(encoding elements: [Element?]) {
        self.elements = elements.map { element in
            switch element?.postgresValue {
            case .text(let text)?: text
            case .binary(let bytes)?: PostgresHex.encodeBytea(bytes)
            case .null?, nil: nil
            }
        }
    }

    public var postgresValue: PostgresValue {
        .text(literal)
    }

    /// The array literal, for an array nested in another array parameter.
    public var literal: String {
        var literal: [UInt8] = []
        literal.reserveCapacity(elements.reduce(2) { $0 + ($1?.utf8.count ?? 4) + 3 })
        literal.append(UInt8(ascii: "{"))
        for (index, element) in elements.enumerated() {
            if index > 0 { literal.append(UInt8(ascii: ",")) }
            guard let element else {
                literal.append(contentsOf: "NULL".utf8)
                continue
            }
            literal.append(UInt8(ascii: "\""))
            for byte in element.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { literal.append(UInt8(ascii: "\\")) }
                literal.append(byte)
            }
            literal.append(UInt8(ascii: "\""))
        }
        literal.append(UInt8(ascii: "}"))
        return String(decoding: literal, as: UTF8.self)
    }
}
