import Foundation
import Testing

@testable import Server

@Suite("Content-Type: the byte match for the usual header agrees with the general rule")
struct ContentTypeTests {
    /// The rule the byte match must not change: the media type before any `;`, trimmed of
    /// Foundation's whitespace set, lowercased.
    private static func generalRule(_ value: String) -> Bool {
        value.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }

    @Test("accepted and refused values, each as the general rule decides")
    func agreesWithTheGeneralRule() {
        let accepted = [
            "application/json", "application/json; charset=utf-8", "Application/JSON", "APPLICATION/JSON;charset=UTF-8",
            "application/json;", " application/json", "application/json ", "\tapplication/json\t; x=y",
            "\u{00A0}application/json", "application/json\u{3000};q=1", "application/json;;",
        ]
        let refused = [
            "", ";", "text/plain", "application/jsonx", "application/json x", "application/json/", "application/jso",
            "application/json-patch+json", "application/json\u{0}", "application\u{0}json", "applicatio\u{0}/json",
            "\u{200B}application/json\u{200B}x", "application/json\n", "\napplication/json", "application/j\u{0130}son",
            "appli\u{0131}ation/json", "application/ json", "application /json", "application\u{0F}json",
        ]
        for value in accepted {
            #expect(RequestBody.isJSON(contentType: value), "\(value.debugDescription)")
            #expect(Self.generalRule(value), "\(value.debugDescription)")
        }
        for value in refused {
            #expect(!RequestBody.isJSON(contentType: value), "\(value.debugDescription)")
            #expect(!Self.generalRule(value), "\(value.debugDescription)")
        }
    }

    @Test("every one-byte change of the header is decided as the general rule decides")
    func singleByteChanges() {
        let header = Array("application/json; charset=utf-8".utf8)
        for position in 0..<header.count {
            for byte in UInt8(0)...UInt8(127) {
                var changed = header
                changed[position] = byte
                let value = String(decoding: changed, as: UTF8.self)
                #expect(RequestBody.isJSON(contentType: value) == Self.generalRule(value), "\(value.debugDescription)")
            }
        }
    }
}
