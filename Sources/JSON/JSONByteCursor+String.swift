extension JSONByteCursor {
    /// Reads a string's contents after its opening quote, through the closing quote.
    ///
    /// Runs without escapes are copied as they are (after UTF-8 validation); escapes are
    /// decoded, with surrogate pairs combined and lone surrogates refused.
    mutating func readStringBody() throws(JSONParseError) -> String {
        var decoded: [UInt8] = []
        var sawEscape = false
        var runStart = offset
        while true {
            let at = offset
            guard let byte = next() else { throw JSONParseError(.unexpectedEnd, at: at) }
            switch byte {
            case UInt8(ascii: "\""):
                if !sawEscape { return String(decoding: bytes[runStart..<at], as: UTF8.self) }
                decoded.append(contentsOf: bytes[runStart..<at])
                return String(decoding: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                sawEscape = true
                decoded.append(contentsOf: bytes[runStart..<at])
                try readEscape(into: &decoded)
                runStart = offset
            case 0..<0x20:
                throw JSONParseError(.controlCharacter, at: at)
            case 0x80...:
                try skipMultibyteScalar(lead: byte, at: at)
            default:
                continue
            }
        }
    }

    /// Validates the continuation bytes of one UTF-8 scalar (Unicode table 3-7: no
    /// overlong forms, no surrogates, nothing above U+10FFFF).
    private mutating func skipMultibyteScalar(lead: UInt8, at: Int) throws(JSONParseError) {
        let count: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: count = 1
        case 0xE0:
            count = 2
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: count = 2
        case 0xED:
            count = 2
            high = 0x9F
        case 0xF0:
            count = 3
            low = 0x90
        case 0xF1...0xF3: count = 3
        case 0xF4:
            count = 3
            high = 0x8F
        default: throw JSONParseError(.invalidUTF8, at: at)
        }
        for index in 0..<count {
            guard let byte = next() else { throw JSONParseError(.unexpectedEnd, at: offset) }
            let range: ClosedRange<UInt8> = index == 0 ? low...high : 0x80...0xBF
            guard range.contains(byte) else { throw JSONParseError(.invalidUTF8, at: at) }
        }
    }

    private mutating func readEscape(into decoded: inout [UInt8]) throws(JSONParseError) {
        let at = offset - 1
        guard let byte = next() else { throw JSONParseError(.unexpectedEnd, at: offset) }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(byte)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            let scalar = try readUnicodeEscape(at: at)
            decoded.append(contentsOf: scalar.utf8)
        default:
            throw JSONParseError(.invalidEscape, at: at)
        }
    }

    /// After `\u`: one scalar, reading the low half of a surrogate pair when one is due.
    private mutating func readUnicodeEscape(at: Int) throws(JSONParseError) -> Unicode.Scalar {
        let first = try readHex4(escapeAt: at)
        switch first {
        case 0xD800...0xDBFF:
            guard next() == UInt8(ascii: "\\"), next() == UInt8(ascii: "u") else {
                throw JSONParseError(.loneSurrogate, at: at)
            }
            let second = try readHex4(escapeAt: offset - 2)
            guard (0xDC00...0xDFFF).contains(second) else { throw JSONParseError(.loneSurrogate, at: at) }
            let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else { throw JSONParseError(.loneSurrogate, at: at) }
            return scalar
        case 0xDC00...0xDFFF:
            throw JSONParseError(.loneSurrogate, at: at)
        default:
            guard let scalar = Unicode.Scalar(first) else { throw JSONParseError(.invalidEscape, at: at) }
            return scalar
        }
    }

    private mutating func readHex4(escapeAt: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = next() else { throw JSONParseError(.unexpectedEnd, at: offset) }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONParseError(.invalidEscape, at: escapeAt)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
