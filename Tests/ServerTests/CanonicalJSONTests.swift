import Foundation
@testable import Server
import Testing

@Suite("CanonicalJSON: equal documents give equal bytes")
struct CanonicalJSONTests {
    private func parse(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    @Test("keys sorted at every depth, whitespace gone, values kept", arguments: [
        (#"{"b": 1, "a": {"d": [true, false, null], "c": "x"}}"#, #"{"a":{"c":"x","d":[true,false,null]},"b":1}"#),
        (#"{"n": -12345678901234, "d": 1.5, "z": 0, "t": true}"#, #"{"d":1.5,"n":-12345678901234,"t":true,"z":0}"#),
        (#"{"s": "quote \" back \\ slash / tab \t nl \n é ✓ \u0001"}"#, #"{"s":"quote \" back \\ slash / tab \t nl \n é ✓ \u0001"}"#),
        (#"[]"#, #"[]"#),
        (#"{}"#, #"{}"#),
    ])
    func canonicalForm(input: String, expected: String) throws {
        let bytes = try CanonicalJSON.data(try parse(input))
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }

    @Test("the output parses back to the same document")
    func roundTrip() throws {
        let text = #"{"notification_type":"DID_RENEW","unified_receipt":{"latest_receipt_info":[{"a":"1","b":2.25,"c":false}],"status":0},"x":[1,[2,{"y":null}]]}"#
        let once = try CanonicalJSON.data(try parse(text))
        let twice = try CanonicalJSON.data(try JSONSerialization.jsonObject(with: once))
        #expect(once == twice)
        let reparsed = try #require(try JSONSerialization.jsonObject(with: once) as? NSDictionary)
        let original = try #require(try parse(text) as? NSDictionary)
        #expect(reparsed == original)
    }

    @Test("key order of the input does not change the bytes")
    func orderIndependent() throws {
        let first = try CanonicalJSON.data(try parse(#"{"a":1,"b":{"c":2,"d":3}}"#))
        let second = try CanonicalJSON.data(try parse(#"{"b":{"d":3,"c":2},"a":1}"#))
        #expect(first == second)
    }
}
