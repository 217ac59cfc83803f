import Foundation
import HTTPClient
import Logging
import Postgres
import TestSupport
import Testing

/// The most severe defect the project had needed no credential: an *unsigned* JWS whose
/// payload claimed a `signedDate` in the year 9999 became the chain's validation time, and
/// swift-certificates trapped rounding it to the year 10000. Against the real binary: each
/// such request is 401, nothing is stored, and the process stays up.
@Suite("Unsigned signedDate edges never stop subscriptiond", .serialized)
struct UnsignedDateCrashTests {
    /// The reproduction from review: x5c is the bundled Apple root three times, the
    /// signature 64 zero bytes, the payload nothing but a date.
    static func unsignedBody(signedDate: String) throws -> [UInt8] {
        let pem = try String(
            contentsOf: TestEnvironment.repositoryRoot().appendingPathComponent("Certificates/AppleRootCA-G3.pem"), encoding: .utf8)
        let der = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let header = #"{"alg":"ES256","x5c":["\#(der)","\#(der)","\#(der)"]}"#
        let payload = #"{"signedDate":\#(signedDate)}"#
        let jws = [Array(header.utf8), Array(payload.utf8), [UInt8](repeating: 0, count: 64)]
            .map {
                Data($0).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            }
            .joined(separator: ".")
        return Array(#"{"signedPayload":"\#(jws)"}"#.utf8)
    }

    /// The year-9999 date of the incident, the last millisecond Apple's range allows, a date
    /// two days ahead, one before the App Store's roots, and the edges a decoder might round.
    static let dates = [
        "253402300799999", "253402300799000", String(Int64(Date().timeIntervalSince1970 * 1000) + 2 * 86_400_000),
        "1167609600000", "1167609599999", "9223372036854775807", "1.7976931348623157e308", "-1", "0",
    ]

    @Test("each unsigned edge date is refused while the daemon keeps serving")
    func unsignedDatesAreRefused() async throws {
        try await RealBinary.with { process, database, http in
            let port = try await process.start()
            for date in Self.dates {
                let response = try await http.execute(
                    .postJSON(
                        url: "http://127.0.0.1:\(port)/notifications/appstore", body: try Self.unsignedBody(signedDate: date),
                        timeout: .seconds(10)))
                #expect([400, 401].contains(response.status), "signedDate \(date): \(response.status)")
                #expect(process.isRunning, "subscriptiond died on signedDate \(date)")
            }
            let incident = try await http.execute(
                .postJSON(
                    url: "http://127.0.0.1:\(port)/notifications/appstore", body: try Self.unsignedBody(signedDate: "253402300799999"),
                    timeout: .seconds(10)))
            #expect(incident.status == 401)
            let live = try await http.execute(.get(url: "http://127.0.0.1:\(port)/health/live", timeout: .seconds(10)))
            #expect(live.status == 200)
            #expect(process.isRunning)
            #expect(try await database.query("SELECT count(*) AS n FROM notifications")[0].decode("n", as: Int.self) == 0)
        }
    }
}
