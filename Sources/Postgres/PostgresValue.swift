/// A value bound to a statement parameter, in the form sent to libpq.
public enum PostgresValue: Sendable, Equatable {
    /// SQL NULL.
    case null
    /// A value in PostgreSQL's text input format; the server infers the type from the statement.
    case text(String)
    /// Raw bytes sent in binary format (for `bytea` parameters).
    case binary([UInt8])
}

/// A Swift value that can be bound to a statement parameter.
public protocol PostgresEncodable: Sendable {
    /// The value in the form sent to the server.
    var postgresValue: PostgresValue { get }
}

extension String: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(self) }
}

extension Int: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(String(self)) }
}

extension Int64: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(String(self)) }
}

extension Int32: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(String(self)) }
}

extension Double: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(String(self)) }
}

extension Bool: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(self ? "t" : "f") }
}

extension Optional: PostgresEncodable where Wrapped: PostgresEncodable {
    public var postgresValue: PostgresValue {
        switch self {
        case .none: return .null
        case .some(let wrapped): return wrapped.postgresValue
        }
    }
}

extension Array: PostgresEncodable where Element == String {
    /// A text array literal (`{"a","b"}`), for `= ANY($1::text[])` lookups.
    ///
    /// Every element is quoted, so commas, braces, spaces, empty strings and the text
    /// `NULL` stay data. Quotes and backslashes are escaped per Unicode scalar: escaping
    /// per `Character` would miss a `"` that a combining mark joins into one grapheme.
    public var postgresValue: PostgresValue {
        var literal = String.UnicodeScalarView()
        literal.append("{")
        for (index, element) in enumerated() {
            if index > 0 { literal.append(",") }
            literal.append("\"")
            for scalar in element.unicodeScalars {
                if scalar == "\"" || scalar == "\\" { literal.append("\\") }
                literal.append(scalar)
            }
            literal.append("\"")
        }
        literal.append("}")
        return .text(String(literal))
    }
}

/// Bytes bound as `bytea`.
public struct PostgresBytes: PostgresEncodable, Equatable {
    /// The raw bytes.
    public var bytes: [UInt8]

    /// Wraps raw bytes for binding as `bytea`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var postgresValue: PostgresValue { .binary(bytes) }
}
