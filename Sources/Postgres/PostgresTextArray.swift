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
    ///
    /// Sized first and then written through a buffer: an intake batch puts whole bodies in
    /// here, and appending them byte by byte showed in its profile.
    public var literal: String {
        var size = 2 + max(0, elements.count - 1)
        for element in elements {
            guard let element else {
                size += 4
                continue
            }
            size += 2 + element.utf8.count + Self.escapesNeeded(in: element)
        }
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { output, initialized in
            var at = 0
            func put(_ byte: UInt8) {
                output[at] = byte
                at += 1
            }
            put(UInt8(ascii: "{"))
            for (index, element) in elements.enumerated() {
                if index > 0 { put(UInt8(ascii: ",")) }
                guard var element else {
                    for byte in "NULL".utf8 { put(byte) }
                    continue
                }
                put(UInt8(ascii: "\""))
                element.withUTF8 { utf8 in
                    for byte in utf8 {
                        if Self.isEscaped(byte) { put(UInt8(ascii: "\\")) }
                        put(byte)
                    }
                }
                put(UInt8(ascii: "\""))
            }
            put(UInt8(ascii: "}"))
            initialized = at
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `byte` is written with a backslash before it inside a quoted element: `"` and `\`.
    private static func isEscaped(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// How many bytes of `element` are escaped.
    private static func escapesNeeded(in element: String) -> Int {
        var element = element
        return element.withUTF8 { utf8 in utf8.reduce(0) { $0 + (isEscaped($1) ? 1 : 0) } }
    }
}
