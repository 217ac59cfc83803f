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
    /// A text array literal (`{"a","b"}`), for `= ANY($1)` lookups.
    public var postgresValue: PostgresValue {
        let quoted = self.map { element -> String in
            let escaped = element.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"")
            return "\"\(escaped)\""
        }
        return .text("{" + quoted.joined(separator: ",") + "}")
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

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
