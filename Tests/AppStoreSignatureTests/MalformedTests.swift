import AppStoreSignature
import Foundation
import SigningTestSupport
import Testing

/// Input that is not a compact JWS at all is malformed (400), distinct from rejected (401).
@Suite struct MalformedTests {
    static func verifier() throws -> SignedPayloadVerifier {
        SignedPayloadVerifier(roots: AppleRootCertificates([try TestPKI().root.certificate]))
    }

    static let header = TestJWS.base64URL(Array(#"{"alg":"ES256","x5c":[]}"#.utf8))
    static let payload = TestJWS.base64URL(Array(#"{"signedDate":1735689600000}"#.utf8))

    static let inputs: [String] = [
        "",
        "abc",
        "a.b",
        "a.b.c.d",
        "\(header).\(payload).sig.extra",
        "\(header).\(payload).c2ln+w==",  // standard alphabet and padding
        "\(header)=.\(payload).c2ln",  // padding
        "\(header).\(payload).a",  // a lone sextet is no byte
        "\(header).not json at all.c2ln",
        "\(header).\(TestJWS.base64URL(Array("not json".utf8))).c2ln",
        "\(header).\(TestJWS.base64URL(Array("[1,2]".utf8))).c2ln",
        "\(TestJWS.base64URL(Array("[]".utf8))).\(payload).c2ln",
        "\(TestJWS.base64URL(Array("not json".utf8))).\(payload).c2ln",
        // A header naming its algorithm twice: readers would disagree on which one counts.
        "\(TestJWS.base64URL(Array(#"{"alg":"ES256","alg":"none","x5c":[]}"#.utf8))).\(payload).c2ln",
        "\(header).\(TestJWS.base64URL(Array(#"{"signedDate":1.5}"#.utf8))).c2ln",
        "\(header).\(TestJWS.base64URL(Array(#"{"signedDate":1e300}"#.utf8))).c2ln",
    ]

    @Test(arguments: inputs)
    func isMalformed(_ input: String) async throws {
        let verifier = try Self.verifier()
        let error = await #expect(throws: SignedPayloadError.self) { try await verifier.verifyNotification(input) }
        #expect(error?.kind == .malformed)
        #expect(error?.description == "malformed signed payload")
    }

    @Test func wellFormedButUnsignedIsRejectedNotMalformed() async throws {
        let verifier = try Self.verifier()
        let error = await #expect(throws: SignedPayloadError.self) {
            try await verifier.verifyNotification("\(Self.header).\(Self.payload).c2ln")
        }
        #expect(error?.kind == .rejected)
        #expect(error?.description == "signed payload rejected")
        #expect(error?.reason.contains("x5c") == true)
    }
}
