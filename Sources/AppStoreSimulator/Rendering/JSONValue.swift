/// A JSON value whose objects keep their keys in order, so bodies are byte-for-byte
/// reproducible (Swift dictionaries are not) and read in Apple's order.
enum JSONValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    /// A number written as given (a decimal amount such as `123.45`).
    case number(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.serialized() == rhs.serialized()
    }

    /// Compact JSON text. `escapeSlashes` writes `/` as `\/`, as Apple's verifyReceipt does.
    func serialized(escapeSlashes: Bool = false) -> String {
        var out = ""
        write(to: &out, escapeSlashes: escapeSlashes)
        return out
    }

    /// The UTF-8 bytes of `serialized(escapeSlashes:)`.
    func bytes(escapeSlashes: Bool = false) -> [UInt8] {
        Array(serialized(escapeSlashes: escapeSlashes).utf8)
    }

    private func write(to out: inout String, escapeSlashes: Bool) {
        switch self {
        case .string(let text): Self.writeString(text, to: &out, escapeSlashes: escapeSlashes)
        case .int(let number): out += String(number)
        case .number(let text): out += text
        case .bool(let flag): out += flag ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out, escapeSlashes: escapeSlashes)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                Self.writeString(key, to: &out, escapeSlashes: escapeSlashes)
                out += ":"
                value.write(to: &out, escapeSlashes: escapeSlashes)
            }
            out += "}"
        }
    }

    private static func writeString(_ text: String, to out: inout String, escapeSlashes: Bool) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where escapeSlashes: out += "\\/"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
