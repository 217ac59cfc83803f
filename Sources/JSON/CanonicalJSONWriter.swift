/// Writes a `JSONValue` as compact JSON with object keys sorted by `String` `<`, so equal
/// documents give equal bytes (intake's dedupe key is their SHA-256).
///
/// The output is byte-identical to what the intake's previous writer produced from
/// `JSONSerialization` for documents with `Int64`/`UInt64` integers and finite doubles,
/// so dedupe keys stored by older versions still match redeliveries:
/// - strings escape `"` and `\`, `\n` `\r` `\t`, other control bytes as `\u00xx`
///   (lowercase hex); everything else is raw UTF-8;
/// - an integer literal that fits `Int64` (else `UInt64`) is written as that integer, so
///   `100` stays `100`; any other number as Swift's `"\(Double)"` of the value
///   `JSONSerialization` would have read (see `JSONNumber.canonicalText` for its quirks),
///   except one beyond `Double`'s range (`1e400`), which keeps its literal text so the
///   output stays valid JSON.
///
/// Recursive: depth is bounded by the parser's nesting limit for parsed documents.
public enum CanonicalJSONWriter {
    /// How numbers are written.
    enum NumberStyle {
        /// The canonical form described on the type.
        case canonical
        /// The literal text from the source, unchanged (used to hand a tree to `JSONDecoder`).
        case literal
    }

    /// The canonical bytes of a value.
    public static func bytes(_ value: JSONValue) -> [UInt8] {
        bytes(value, numbers: .canonical)
    }

    /// The canonical text of a value.
    public static func string(_ value: JSONValue) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    static func bytes(_ value: JSONValue, numbers: NumberStyle) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1_024)
        write(value, numbers: numbers, into: &out)
        return out
    }

    private static func write(_ value: JSONValue, numbers: NumberStyle, into out: inout [UInt8]) {
        switch value {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let flag):
            out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number):
            out.append(contentsOf: (numbers == .canonical ? number.canonicalText : number.text).utf8)
        case .string(let text):
            writeString(text, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, numbers: numbers, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                if let member = members[key] { write(member, numbers: numbers, into: &out) }
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends a quoted, escaped string (``JSONStringEscaper/Style/jsonSerialization``).
    static func writeString(_ string: String, into out: inout [UInt8]) {
        JSONStringEscaper.append(string, to: &out, style: .jsonSerialization)
    }
}
