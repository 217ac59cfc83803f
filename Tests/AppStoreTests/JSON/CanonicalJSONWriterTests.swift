import AppStore
import JSON
import Testing

@Suite("CanonicalJSONWriter matches the previous writer")
struct CanonicalJSONWriterTests {
    static let fixtureFiles: [String] = {
        let folders = ["v1", "verifyReceipt", "v2-genuine", "v2-test-signed"]
        return folders.flatMap { folder in
            ((try? Fixtures.jsonFiles(in: folder)) ?? []).map { "\(folder)/\($0)" }
        }
    }()

    @Test("byte-identical on every real-world fixture", arguments: fixtureFiles)
    func fixture(_ path: String) throws {
        let bytes = try Fixtures.bytes(path)
        let tree = try StrictJSONParser.parse(bytes)
        #expect(CanonicalJSONWriter.bytes(tree) == (try LegacyCanonicalJSON.canonical(bytes)))
    }

    @Test func everyFixtureFolderHasFiles() {
        #expect(Self.fixtureFiles.filter { $0.hasPrefix("v1/") }.count >= 8)
        #expect(Self.fixtureFiles.filter { $0.hasPrefix("verifyReceipt/") }.count >= 7)
    }

    @Test(
        "byte-identical on hand-made documents",
        arguments: [
            #"{"b":1,"a":2,"B":3,"_":4,"aa":5,"é":6,"Z":7}"#,
            #"{"n":[0,-0,1,-1,100,9223372036854775807,-9223372036854775808]}"#,
            #"{"u":18446744073709551615,"big":9223372036854775808}"#,
            #"{"d":[1.0,-0.0,0.5,1.5e3,1e2,1E-7,123456789.123,1e16,1e21,3.14159265358979,1e-5,2.5e-308]}"#,
            #"{"ms":1611147600000,"msd":1611147600000.0,"e":1.611147600000e12}"#,
            #"{"big":100000000000000000000,"neg":-100000000000000000000}"#,
            #"{"s":"quote \" backslash \\ slash \/ nl \n cr \r tab \t bs \b ff \f nul \u0000 us \u001f del \u007f"}"#,
            #"{"s":"é € 😀 \u00e9 \ud83d\ude00 \u2028"}"#,
            #"[true,false,null,"",[],{},[[]],{"a":{}}]"#,
            #"  {  "spaced" : [ 1 , 2 ] , "k" : null }  "#,
            #""top-level string""#,
            "12",
        ])
    func handMade(_ text: String) throws {
        let tree = try StrictJSONParser.parse(json(text))
        let mine = CanonicalJSONWriter.string(tree)
        let reference = String(decoding: try LegacyCanonicalJSON.canonical(json(text)), as: UTF8.self)
        #expect(mine == reference)
    }

    @Test(
        "numbers are written as the previous writer wrote them",
        arguments: [
            "0", "-0", "1", "-1", "7", "9223372036854775806", "9223372036854775807", "9223372036854775808",
            "-9223372036854775807", "-9223372036854775808", "-9223372036854775809",
            "18446744073709551615", "18446744073709551616", "-18446744073709551616",
            "0.0", "-0.0", "0.1", "1.25", "100e0", "1E2", "1e-2", "5e-324", "1.7976931348623157e308",
            "0.30000000000000004", "123456789012345678", "1234567890123456789012", "1.000000000000000000001",
            "1611147600000", "1611147600000.5", "-1611147600000", "-0.30000000000000004",
            "1E5", "1.5E3", "1.00000000000000000000E5", "12345678901234567890.5", "-12345678901234567890",
            "123456789012345678e100", "1234567890123456789e-130", "0.000000000000000000001",
            "99999999999999999999", String(repeating: "9", count: 21),
        ])
    func numberText(_ text: String) throws {
        let mine = CanonicalJSONWriter.string(try StrictJSONParser.parse(json("[\(text)]")))
        let reference = String(decoding: try LegacyCanonicalJSON.canonical(json("[\(text)]")), as: UTF8.self)
        #expect(mine == reference)
    }

    @Test func integersStayIntegers() throws {
        #expect(CanonicalJSONWriter.string(try StrictJSONParser.parse(json("[100,-0,1.0,1e2]"))) == "[100,0,1.0,100.0]")
    }

    @Test func numbersBeyondDoubleStayValidJSON() throws {
        let text = CanonicalJSONWriter.string(try StrictJSONParser.parse(json("[1e400,-1e400]")))
        #expect(text == "[1e400,-1e400]")
    }

    @Test func passwordRemovedBeforeWriting() throws {
        let tree = try StrictJSONParser.parse(json(#"{"password":"s","bid":"com.a"}"#))
        #expect(CanonicalJSONWriter.string(tree.removingMember("password")) == #"{"bid":"com.a"}"#)
    }
}
