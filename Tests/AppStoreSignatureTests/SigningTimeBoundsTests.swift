import AppStoreSignature
import CivilDate
import Foundation
import SigningTestSupport
import Testing

/// A payload's `signedDate` is the chain's validation time and is read before anything is
/// verified. Every edge a date can take reaches the verifier without a trap, and a date the
/// configured roots cannot cover, or more than a day ahead, is refused before any chain is built.
@Suite struct SigningTimeBoundsTests {
    /// The verifier's clock: mid-2026, inside the test PKI's 2024–2030 validity.
    static let now = Date(timeIntervalSince1970: 1_780_000_000)
    static let day: Int64 = 86_400_000
    static let nowMS = Int64(now.timeIntervalSince1970 * 1000)
    /// The test PKI's root becomes valid on 2024-01-01.
    static let rootValidFrom: Int64 = 1_704_067_200_000

    /// ±1 ms around the start of every year from 2007 to 10000, and around the day bound.
    static func yearEdges() -> [Int64] {
        (2007...10_000).flatMap { year -> [Int64] in
            let start = CivilDate(year: Int64(year), month: 1, day: 1).daysSince1970 * day
            return [start - 1, start, start + 1]
        } + [nowMS + day - 1, nowMS + day, nowMS + day + 1, rootValidFrom - 1, rootValidFrom]
    }

    /// Literals at the limits of Int64 and Double, which no decoder may round into range.
    static let limitLiterals = [
        "9223372036854775806", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "1.7976931348623157e308", "1.7976931348623159e308", "-1.7976931348623157e308", "4.9e-324", "9007199254740993",
        "253402300799999.5", "1e19", "-0", "0",
    ]

    static func verifier(_ pki: TestPKI) -> SignedPayloadVerifier {
        SignedPayloadVerifier(roots: AppleRootCertificates([pki.root.certificate]), now: { now })
    }

    @Test func everyYearEdgeIsDecidedWithoutATrap() async throws {
        let pki = try TestPKI()
        let verifier = Self.verifier(pki)
        var accepted = 0
        let header = TestJWS.base64URL(
            try JSONSerialization.data(withJSONObject: ["alg": "ES256", "x5c": pki.x5c], options: [.sortedKeys]))
        let unsigned = TestJWS.base64URL([UInt8](repeating: 0, count: 64))
        for milliseconds in Self.yearEdges() {
            let payload = #"{"signedDate":\#(milliseconds)}"#
            let admissible = Self.rootValidFrom <= milliseconds && milliseconds <= Self.nowMS + Self.day
            // Only admissible dates need a real signature: the others must be refused before it
            // is checked, and would fail with another reason if they were not.
            let jws =
                admissible
                ? try TestJWS.sign(payload: payload, by: pki)
                : header + "." + TestJWS.base64URL(Array(payload.utf8)) + "." + unsigned
            do {
                _ = try await verifier.verifyNotification(jws)
                #expect(admissible, "signedDate \(milliseconds) was accepted")
                accepted += 1
            } catch {
                #expect(!admissible, "signedDate \(milliseconds) was refused: \(error.reason)")
                let decodable = milliseconds >= 1_167_609_600_000 && milliseconds <= 253_402_300_799_999
                #expect(error.kind == (decodable ? .rejected : .malformed), "signedDate \(milliseconds): \(error.reason)")
                if decodable { #expect(error.reason.contains("signedDate")) }
            }
        }
        // 2024-01-01 and its next millisecond, 2025's and 2026's three, the day bound's lower two, rootValidFrom.
        #expect(accepted == 2 + 3 + 3 + 2 + 1)
    }

    @Test(arguments: limitLiterals)
    func limitLiteralsNeverReachTheChain(_ literal: String) async throws {
        let pki = try TestPKI()
        let verifier = Self.verifier(pki)
        let jws = try TestJWS.sign(payload: #"{"signedDate":\#(literal)}"#, by: pki)
        await #expect(throws: SignedPayloadError.self) { try await verifier.verifyNotification(jws) }
        #expect(verifier.fullChainValidationCount == 0)
    }

    @Test func nestedPayloadsAreBoundedToo() async throws {
        let pki = try TestPKI()
        let nested = try TestJWS.sign(payload: #"{"signedDate":253402300799999}"#, by: pki)
        let outer = try TestJWS.sign(payload: #"{"signedDate":\#(Self.nowMS),"data":{"signedTransactionInfo":"\#(nested)"}}"#, by: pki)
        let error = await #expect(throws: SignedPayloadError.self) { try await Self.verifier(pki).verifyNotification(outer) }
        #expect(error?.kind == .rejected)
    }
}
