import AppStore
import Foundation
import Testing

/// The JWS decoder against Foundation's base64 on every length and byte value, and its refusals.
@Suite("Base64URL decodes canonical unpadded base64url only")
struct Base64URLTests {
    /// Foundation's standard base64 of `bytes`, turned into unpadded base64url.
    static func reference(_ bytes: [UInt8]) -> [UInt8] {
        Array(
            Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "").utf8)
    }

    @Test func decodesWhatFoundationEncodes() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            for _ in 0..<5 {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let text = Self.reference(bytes)
                #expect(Base64URL.decode(text[...]) == bytes, "length \(length)")
                #expect(Base64URL.encode(bytes) == String(decoding: text, as: UTF8.self))
            }
        }
        #expect(Base64URL.decode([][...]) == [])
    }

    @Test func refusesAnythingElse() {
        for text in ["A", "AAAAA", "AB", "ABC", "AA==", "AAA=", "AB+/", "AB C", "ABCD\n", "ABCÉ", "AAAA\u{0}"] {
            #expect(Base64URL.decode(Array(text.utf8)[...]) == nil, "\(text)")
        }
        // The same bytes as "AA" and "AAE" except for leftover bits, which must be zero.
        #expect(Base64URL.decode(Array("AA".utf8)[...]) == [0])
        #expect(Base64URL.decode(Array("AAE".utf8)[...]) == [0, 1])
        #expect(Base64URL.decode(Array("AAF".utf8)[...]) == nil)
        // A slice of a larger buffer is decoded from its own start.
        let buffer = Array("xx.AQID.yy".utf8)
        #expect(Base64URL.decode(buffer[3..<7]) == [1, 2, 3])
    }
}
