import JSON
import Testing

/// One row of the accept/reject table: a document and whether the strict parser takes it.
struct ParserCase: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    /// `nil` when the document must be accepted.
    let rejection: JSONParseError.Kind?

    var testDescription: String { name }

    static func accept(_ name: String, _ text: String) -> ParserCase {
        ParserCase(name: name, bytes: Array(text.utf8), rejection: nil)
    }

    static func reject(_ name: String, _ text: String, _ kind: JSONParseError.Kind) -> ParserCase {
        ParserCase(name: name, bytes: Array(text.utf8), rejection: kind)
    }

    static func reject(_ name: String, bytes: [UInt8], _ kind: JSONParseError.Kind) -> ParserCase {
        ParserCase(name: name, bytes: bytes, rejection: kind)
    }
}

@Suite("StrictJSONParser accept/reject table")
struct StrictJSONParserTableTests {
    static let cases: [ParserCase] = [
        .accept("empty object", "{}"),
        .accept("empty array", "[]"),
        .accept("scalar at top level", "\"text\""),
        .accept("number at top level", "42"),
        .accept("literals", "[true,false,null]"),
        .accept("surrounding whitespace", " \t\r\n{\"a\" : [ 1 , 2 ] }\n "),
        .accept("negative zero", "-0"),
        .accept("negative zero fraction", "-0.0"),
        .accept("exponent forms", "[1e5,1E5,1e+5,1e-5,1.5e05]"),
        .accept("number beyond Double", "1e400"),
        .accept("integer beyond UInt64", "100000000000000000000"),
        .accept("tiny number", "1e-400"),
        .accept("escapes", #""\" \\ \/ \b \f \n \r \t""#),
        .accept("unicode escape", #""\u00e9\u20AC""#),
        .accept("surrogate pair escape", #""\ud83d\ude00""#),
        .accept("escaped NUL", #""\u0000""#),
        .accept("raw multibyte UTF-8", "\"é€😀\""),
        .accept("same key in sibling objects", #"[{"a":1},{"a":2}]"#),
        .accept("same key at two depths", #"{"a":{"a":1}}"#),
        .accept("keys differing by case", #"{"a":1,"A":2}"#),
        .accept("nesting at the limit", String(repeating: "[", count: 64) + String(repeating: "]", count: 64)),
        .accept("DEL is not a control character", "\"\u{7F}\""),

        .reject("empty input", "", .unexpectedEnd),
        .reject("only whitespace", "  ", .unexpectedEnd),
        .reject("duplicate key", #"{"a":1,"a":2}"#, .duplicateKey("a")),
        .reject("duplicate key after escape", #"{"a":1,"\u0061":2}"#, .duplicateKey("a")),
        .reject("duplicate bid", #"{"bid":"com.a","x":0,"bid":"com.b"}"#, .duplicateKey("bid")),
        .reject("duplicate key, canonically equivalent", "{\"\u{E9}\":1,\"e\u{301}\":2}", .duplicateKey("e\u{301}")),
        .reject("nesting past the limit", String(repeating: "[", count: 65) + String(repeating: "]", count: 65), .tooDeep(limit: 64)),
        .reject("100,000 open brackets", String(repeating: "[", count: 100_000), .tooDeep(limit: 64)),
        .reject("deep objects", String(repeating: "{\"a\":", count: 100), .tooDeep(limit: 64)),
        .reject("leading zero", "01", .invalidNumber),
        .reject("negative leading zero", "-01", .invalidNumber),
        .reject("leading plus", "+1", .unexpectedByte(UInt8(ascii: "+"))),
        .reject("bare minus", "-", .invalidNumber),
        .reject("fraction without digits", "1.", .invalidNumber),
        .reject("fraction without integer", ".5", .unexpectedByte(UInt8(ascii: "."))),
        .reject("exponent without digits", "1e", .invalidNumber),
        .reject("exponent sign without digits", "1e+", .invalidNumber),
        .reject("NaN", "NaN", .unexpectedByte(UInt8(ascii: "N"))),
        .reject("Infinity", "Infinity", .unexpectedByte(UInt8(ascii: "I"))),
        .reject("negative Infinity", "-Infinity", .invalidNumber),
        .reject("hex number", "0x10", .trailingData),
        .reject("trailing comma in array", "[1,]", .unexpectedByte(UInt8(ascii: "]"))),
        .reject("trailing comma in object", #"{"a":1,}"#, .unexpectedByte(UInt8(ascii: "}"))),
        .reject("missing comma", "[1 2]", .unexpectedByte(UInt8(ascii: "2"))),
        .reject("missing colon", #"{"a" 1}"#, .unexpectedByte(UInt8(ascii: "1"))),
        .reject("unquoted key", "{a:1}", .unexpectedByte(UInt8(ascii: "a"))),
        .reject("single quotes", "['a']", .unexpectedByte(UInt8(ascii: "'"))),
        .reject("trailing garbage", "{} x", .trailingData),
        .reject("two documents", "{}{}", .trailingData),
        .reject("unclosed array", "[1", .unexpectedEnd),
        .reject("unclosed string", "\"abc", .unexpectedEnd),
        .reject("mismatched brackets", "[1}", .unexpectedByte(UInt8(ascii: "}"))),
        .reject("comment", "{} // c", .trailingData),
        .reject("misspelt literal", "tru", .unexpectedEnd),
        .reject("wrong literal", "nul1", .unexpectedByte(UInt8(ascii: "1"))),
        .reject("raw newline in string", "\"a\nb\"", .controlCharacter),
        .reject("raw tab in string", "\"a\tb\"", .controlCharacter),
        .reject("raw NUL in string", "\"a\u{0}b\"", .controlCharacter),
        .reject("unknown escape", #""\x41""#, .invalidEscape),
        .reject("short unicode escape", #""\u12""#, .invalidEscape),
        .reject("lone high surrogate", #""\ud83d""#, .loneSurrogate),
        .reject("lone high surrogate then text", #""\ud83dabcdef""#, .loneSurrogate),
        .reject("lone low surrogate", #""\ude00""#, .loneSurrogate),
        .reject("high surrogate then non-surrogate", #""\ud83d\u0041""#, .loneSurrogate),
        .reject("byte order mark", bytes: [0xEF, 0xBB, 0xBF, 0x7B, 0x7D], .unexpectedByte(0xEF)),
        .reject("invalid UTF-8 lead", bytes: [0x22, 0xFF, 0x22], .invalidUTF8),
        .reject("bare continuation byte", bytes: [0x22, 0x80, 0x22], .invalidUTF8),
        .reject("overlong slash", bytes: [0x22, 0xC0, 0xAF, 0x22], .invalidUTF8),
        .reject("overlong three bytes", bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], .invalidUTF8),
        .reject("UTF-8 encoded surrogate", bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8),
        .reject("above U+10FFFF", bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8),
        .reject("truncated sequence", bytes: [0x22, 0xE2, 0x82, 0x22], .invalidUTF8),
        .reject("invalid UTF-8 in a key", bytes: Array("{\"".utf8) + [0xC3] + Array("\":1}".utf8), .invalidUTF8),
        .reject("UTF-8 outside a string", bytes: [0xC3, 0xA9], .unexpectedByte(0xC3)),
    ]

    @Test("table row", arguments: cases)
    func row(_ row: ParserCase) {
        do {
            _ = try StrictJSONParser.parse(row.bytes)
            #expect(row.rejection == nil, "accepted a document that must be rejected")
        } catch {
            #expect(error.kind == row.rejection, "\(error)")
        }
    }

    @Test func tableHasEnoughRows() {
        #expect(Self.cases.count >= 40)
        #expect(Self.cases.contains { $0.rejection == nil })
    }

    @Test func duplicateKeyErrorNamesKeyAndOffset() {
        #expect(throws: JSONParseError(.duplicateKey("bid"), at: 21)) {
            try StrictJSONParser.parse(json(#"{"bid":"com.a","x":0,"bid":"com.b"}"#))
        }
        let error = JSONParseError(.duplicateKey("bid"), at: 21)
        #expect(error.description == #"duplicate key "bid" at byte 21"#)
    }

    @Test func errorsNeverQuoteStringValues() {
        let secret = "hunter2-shared-secret"
        for text in [#"{"password":"\#(secret)\x"}"#, "{\"password\":\"\(secret)\n\"}", #"{"password":"\#(secret)"#] {
            do {
                _ = try StrictJSONParser.parse(json(text))
                Issue.record("accepted \(text)")
            } catch {
                #expect(!error.description.contains(secret))
            }
        }
    }

    @Test func longDuplicateKeyIsCutInTheDescription() {
        let key = String(repeating: "k", count: 500)
        let error = JSONParseError(.duplicateKey(key), at: 0)
        #expect(error.description.count < 100)
    }

    @Test func customDepthLimit() throws {
        #expect(throws: JSONParseError(.tooDeep(limit: 2), at: 2)) {
            try StrictJSONParser.parse(json("[[[]]]"), maxDepth: 2)
        }
        _ = try StrictJSONParser.parse(json("[[]]"), maxDepth: 2)
    }
}
