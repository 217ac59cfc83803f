import Foundation
import JSON
import Testing

@Suite("JSONValue and JSONNumber")
struct JSONValueTests {
    @Test func parsesTheTreeItSees() throws {
        let value = try StrictJSONParser.parse(json(#"{"a":[1,"x\u00e9",true,null],"b":{"c":-2.5e1}}"#))
        let expected: JSONValue = .object([
            "a": .array([.number(JSONNumber(1)), .string("xé"), .bool(true), .null]),
            "b": .object(["c": .number(JSONNumber(text: "-2.5e1"))]),
        ])
        #expect(value == expected)
        #expect(value["b"]?["c"] == .number(JSONNumber(text: "-2.5e1")))
        #expect(value["a"]?.stringValue == nil)
        #expect(value.removingMember("a").objectMembers?.keys.sorted() == ["b"])
    }

    @Test func numbersKeepTheirText() throws {
        guard case .number(let big) = try StrictJSONParser.parse(json("100000000000000000000")) else {
            Issue.record("not a number")
            return
        }
        #expect(big.text == "100000000000000000000")
        #expect(big.int64 == nil)
        #expect(big.uint64 == nil)
        #expect(big.double == 1e20)
    }

    @Test(
        arguments: [
            ("0", Int64?.some(0), Double?.some(0)),
            ("-0", 0, -0.0),
            ("9223372036854775807", Int64.max, 9.223372036854776e18),
            ("9223372036854775808", nil, 9.223372036854776e18),
            ("-9223372036854775808", Int64.min, -9.223372036854776e18),
            ("1.0", nil, 1),
            ("1e2", nil, 100),
            ("1e400", nil, nil),
            ("-1e400", nil, nil),
            ("1e-400", nil, 0),
        ] as [(String, Int64?, Double?)])
    func numberReaders(text: String, int64: Int64?, double: Double?) {
        let number = JSONNumber(text: text)
        #expect(number.int64 == int64)
        #expect(number.double == double)
    }

    @Test func escapedStringsDecode() throws {
        let value = try StrictJSONParser.parse(json(#""a\"b\\c\/d\b\f\n\r\t\u0000\ud83d\ude00é""#))
        #expect(value == .string("a\"b\\c/d\u{8}\u{C}\n\r\t\u{0}😀é"))
    }
}

@Suite("JSONValue as Encodable (subscriptionctl --json embeds stored bodies)")
struct JSONValueEncodableTests {
    @Test("integers stay integers, other numbers become doubles, what no Double holds stays its text")
    func numbers() throws {
        let tree = try StrictJSONParser.parse(Array(#"{"a":1,"b":-2.5,"c":1e999,"d":[true,null,"x"],"e":9007199254740993}"#.utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(tree), as: UTF8.self)
        #expect(text == #"{"a":1,"b":-2.5,"c":"1e999","d":[true,null,"x"],"e":9007199254740993}"#)
    }
}
