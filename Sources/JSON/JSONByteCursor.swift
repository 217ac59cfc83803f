/// A bounds-checked position in a JSON document, with the scalar readers the parser needs.
///
/// Every read checks the end first, so no input can make an index trap.
struct JSONByteCursor {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset >= bytes.count }

    func peek() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    mutating func next() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// RFC 8259 whitespace only: space, tab, line feed, carriage return.
    mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            offset += 1
        }
    }

    /// Consumes `true`, `false` or `null`; the first differing byte is the error.
    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for want in expected {
            let at = offset
            guard let byte = next() else { throw JSONParseError(.unexpectedEnd, at: at) }
            guard byte == want else { throw JSONParseError(.unexpectedByte(byte), at: at) }
        }
    }

    /// Reads `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` and returns its text.
    mutating func readNumber() throws(JSONParseError) -> JSONNumber {
        let start = offset
        if peek() == UInt8(ascii: "-") { offset += 1 }
        guard let first = peek(), isDigit(first) else { throw JSONParseError(.invalidNumber, at: offset) }
        offset += 1
        if first == UInt8(ascii: "0") {
            if let byte = peek(), isDigit(byte) { throw JSONParseError(.invalidNumber, at: offset) }
        } else {
            skipDigits()
        }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            try requireDigits()
        }
        if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            offset += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { offset += 1 }
            try requireDigits()
        }
        return JSONNumber(text: String(decoding: bytes[start..<offset], as: UTF8.self))
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { offset += 1 }
    }

    private mutating func requireDigits() throws(JSONParseError) {
        guard let byte = peek(), isDigit(byte) else { throw JSONParseError(.invalidNumber, at: offset) }
        skipDigits()
    }
}
