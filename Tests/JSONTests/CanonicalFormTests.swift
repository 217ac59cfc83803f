import Foundation
import JSON
import Testing

/// The intake's stored copy and dedupe key: equal documents must give equal bytes.
@Suite("Canonical form: equal documents give equal bytes")
struct CanonicalFormTests {
    private func parse(_ text: String) throws -> JSONValue {
        try StrictJSONParser.parse(Array(text.utf8))
    }

    private func canonical(_ value: JSONValue) -> Data {
        Data(CanonicalJSONWriter.bytes(value))
    }

    @Test(
        "keys sorted at every depth, whitespace gone, values kept",
        arguments: [
            (#"{"b": 1, "a": {"d": [true, false, null], "c": "x"}}"#, #"{"a":{"c":"x","d":[true,false,null]},"b":1}"#),
            (#"{"n": -12345678901234, "d": 1.5, "z": 0, "t": true}"#, #"{"d":1.5,"n":-12345678901234,"t":true,"z":0}"#),
            (#"{"s": "quote \" back \\ slash / tab \t nl \n é ✓ \u0001"}"#, #"{"s":"quote \" back \\ slash / tab \t nl \n é ✓ \u0001"}"#),
            (#"[]"#, #"[]"#),
            (#"{}"#, #"{}"#),
        ])
    func canonicalForm(input: String, expected: String) throws {
        let bytes = canonical(try parse(input))
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }

    @Test("the output parses back to the same document")
    func roundTrip() throws {
        let text =
            #"{"notification_type":"DID_RENEW","unified_receipt":{"latest_receipt_info":[{"a":"1","b":2.25,"c":false}],"status":0},"x":[1,[2,{"y":null}]]}"#
        let once = canonical(try parse(text))
        let twice = canonical(try StrictJSONParser.parse(Array(once)))
        #expect(once == twice)
        let reparsed = try #require(try JSONSerialization.jsonObject(with: once) as? NSDictionary)
        let original = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
        #expect(reparsed == original)
    }

    @Test("key order of the input does not change the bytes")
    func orderIndependent() throws {
        let first = canonical(try parse(#"{"a":1,"b":{"c":2,"d":3}}"#))
        let second = canonical(try parse(#"{"b":{"d":3,"c":2},"a":1}"#))
        #expect(first == second)
    }
}
