/// Why `StrictJSONParser` refused a document, and at which byte.
///
/// `description` is safe to log or return to a caller: it names the kind and offset and,
/// for a duplicate key, the key (keys are field names, not secrets). String values are
/// never quoted.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public enum Kind: Sendable, Equatable {
        /// The input ended inside a value, or was empty.
        case unexpectedEnd
        /// A byte that cannot start or continue a value here (includes `NaN`, `Infinity`,
        /// trailing commas, single quotes, comments).
        case unexpectedByte(UInt8)
        /// Bytes that are not well-formed UTF-8 inside a string.
        case invalidUTF8
        /// An unescaped control character (below U+0020) inside a string.
        case controlCharacter
        /// A backslash escape JSON does not define, or a malformed `\u` escape.
        case invalidEscape
        /// A `\uD800`–`\uDFFF` escape that is not part of a valid surrogate pair.
        case loneSurrogate
        /// A number with a leading zero (`01`) or without digits where they are required.
        case invalidNumber
        /// An object names the same key twice (after unescaping).
        case duplicateKey(String)
        /// Arrays and objects nested deeper than the limit.
        case tooDeep(limit: Int)
        /// Something other than whitespace follows the document.
        case trailingData
    }

    /// What was wrong.
    public let kind: Kind
    /// The byte offset at which it was noticed.
    public let offset: Int

    /// Creates an error; the parser is the only producer.
    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// A short, safe sentence, e.g. `duplicate key "bid" at byte 120`.
    public var description: String {
        "\(what) at byte \(offset)"
    }

    private var what: String {
        switch kind {
        case .unexpectedEnd: return "unexpected end of input"
        case .unexpectedByte(let byte): return "unexpected byte 0x" + hex(byte)
        case .invalidUTF8: return "invalid UTF-8 in a string"
        case .controlCharacter: return "unescaped control character in a string"
        case .invalidEscape: return "invalid escape in a string"
        case .loneSurrogate: return "lone surrogate escape in a string"
        case .invalidNumber: return "invalid number"
        case .duplicateKey(let key): return "duplicate key " + Self.quoted(key)
        case .tooDeep(let limit): return "nesting deeper than \(limit)"
        case .trailingData: return "data after the JSON value"
        }
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// The key escaped as JSON and cut to 64 bytes, so a hostile key cannot flood a log line.
    private static func quoted(_ key: String) -> String {
        var bytes: [UInt8] = []
        CanonicalJSONWriter.writeString(key, into: &bytes)
        guard bytes.count > 66 else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes.prefix(64), as: UTF8.self) + "…\""
    }
}
