/// A JSON number kept as the exact text it had in the document.
///
/// Readers never trap: a value that does not fit the asked type reads as `nil`.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The literal, e.g. `-12`, `1.5e3`, `100000000000000000000`.
    public let text: String

    /// Wraps a literal. The parser only builds valid ones; text built in code is trusted.
    public init(text: String) {
        self.text = text
    }

    /// An integer literal's number (no fraction, no exponent).
    public init(_ value: Int64) {
        self.text = String(value)
    }

    /// Whether the literal has neither a fraction nor an exponent.
    public var isIntegerLiteral: Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// The value when it is an integer literal that fits `Int64`.
    public var int64: Int64? {
        isIntegerLiteral ? Int64(text) : nil
    }

    /// The value when it is an integer literal that fits `UInt64`.
    public var uint64: UInt64? {
        isIntegerLiteral ? UInt64(text) : nil
    }

    /// The nearest `Double`, or `nil` when the literal is beyond `Double`'s range (`1e400`).
    ///
    /// Tiny literals such as `1e-400` read as zero, as every JSON reader does.
    public var double: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// The literal text.
    public var description: String { text }
}
