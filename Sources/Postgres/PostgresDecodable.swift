import Foundation

/// A Swift type that can be decoded from a column in PostgreSQL's text output format.
public protocol PostgresDecodable {
    /// Decodes from the column's text, `nil` meaning SQL NULL.
    init(postgresText: String?) throws
}

/// Why a column value could not be decoded; wrapped into `PostgresError` with the column name.
struct PostgresDecodingFailure: Error {
    let reason: String
}

/// A non-optional type decoded from non-NULL text.
protocol PostgresTextDecodable: PostgresDecodable {
    init?(nonNullPostgresText text: String)
}

extension PostgresTextDecodable {
    public init(postgresText: String?) throws {
        guard let text = postgresText else {
            throw PostgresDecodingFailure(reason: "NULL where \(Self.self) was expected")
        }
        guard let value = Self(nonNullPostgresText: text) else {
            throw PostgresDecodingFailure(reason: "cannot read \(Self.self) from the column's value")
        }
        self = value
    }
}

extension String: PostgresTextDecodable {
    init?(nonNullPostgresText text: String) { self = text }
}

extension Int: PostgresTextDecodable {
    init?(nonNullPostgresText text: String) { self.init(text) }
}

extension Int64: PostgresTextDecodable {
    init?(nonNullPostgresText text: String) { self.init(text) }
}

extension Int32: PostgresTextDecodable {
    init?(nonNullPostgresText text: String) { self.init(text) }
}

extension Double: PostgresTextDecodable {
    init?(nonNullPostgresText text: String) { self.init(text) }
}

extension Bool: PostgresTextDecodable {
    init?(nonNullPostgresText text: String) {
        switch text {
        case "t", "true": self = true
        case "f", "false": self = false
        default: return nil
        }
    }
}

extension Date: PostgresTextDecodable {
    init?(nonNullPostgresText text: String) {
        guard let date = PostgresTimestamp.parse(text) else { return nil }
        self = date
    }
}

extension PostgresBytes: PostgresTextDecodable {
    init?(nonNullPostgresText text: String) {
        guard let bytes = PostgresHex.decodeBytea(text) else { return nil }
        self.init(bytes)
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    public init(postgresText: String?) throws {
        guard let text = postgresText else {
            self = .none
            return
        }
        self = .some(try Wrapped(postgresText: text))
    }
}
