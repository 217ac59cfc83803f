/// The one JSON string escaper, in the two spellings this project must reproduce byte for
/// byte: both escape `"` and `\`, `\t` `\n` `\r`, and every other control byte as `\u00xx`
/// (lowercase hex), and write everything else as raw UTF-8 (`/` included). They differ only
/// in backspace and form feed:
/// - ``Style/jsonSerialization`` writes them `\u0008` and `\u000c`, as Foundation's
///   `JSONSerialization` did: stored v1 bodies and their dedupe keys were written that way;
/// - ``Style/jsonEncoder`` writes them `\b` and `\f`, as `JSONEncoder` does: the contract's
///   documents were written that way.
public enum JSONStringEscaper {
    /// Which writer's spelling to reproduce.
    public enum Style: Sendable {
        case jsonSerialization
        case jsonEncoder
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `string`, quoted and escaped in `style`.
    public static func append(_ string: String, to out: inout [UInt8], style: Style) {
        let backslash = UInt8(ascii: "\\")
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), backslash:
                out.append(backslash)
                out.append(byte)
            case 0x09:
                out.append(backslash)
                out.append(UInt8(ascii: "t"))
            case 0x0A:
                out.append(backslash)
                out.append(UInt8(ascii: "n"))
            case 0x0D:
                out.append(backslash)
                out.append(UInt8(ascii: "r"))
            case 0x08 where style == .jsonEncoder:
                out.append(backslash)
                out.append(UInt8(ascii: "b"))
            case 0x0C where style == .jsonEncoder:
                out.append(backslash)
                out.append(UInt8(ascii: "f"))
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
