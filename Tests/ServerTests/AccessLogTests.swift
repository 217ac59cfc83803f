import Foundation
import HTTPClient
import TestSupport
import Testing

/// The access log of the real binary with `LOG_FORMAT=json`: one line per request, its route
/// template and status, the request id shared with the request's other lines, and nothing
/// secret or personal.
@Suite("Access log: one JSON line per request, with its request id, and nothing secret")
struct AccessLogTests {
    private static func lines(_ log: String) -> [[String: Any]] {
        log.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    @Test(
        "an accepted notification and a read of an unknown user: one access line each; the intake line shares the request id; no receipt, secret, token or user id"
    )
    func requests() async throws {
        let receipt = "UkVDRUlQVC1NVVNULU5PVC1CRS1MT0dHRUQ="
        try await RealBinary.with(["LOG_FORMAT": "json", "ADMIN_TOKEN": RunningService.adminToken]) { process, _, http in
            let port = try await process.start()
            let body = NotificationBodies.bytes(NotificationBodies.v1(originalTransactionID: "8300000000000001", receipt: receipt))
            #expect(
                try await http.execute(.postJSON(url: "http://127.0.0.1:\(port)/notifications/appstore", body: body, timeout: .seconds(10)))
                    .status == 200)
            var read = HTTPRequest.get(url: "http://127.0.0.1:\(port)/v1/subscribers/private-user-42", timeout: .seconds(10))
            read.headers.append(HTTPHeader(name: "Authorization", value: "Bearer \(RunningService.adminToken)"))
            #expect(try await http.execute(read).status == 404)

            var access: [[String: Any]] = []
            let deadline = ContinuousClock.now + .seconds(10)
            repeat {
                try await Task.sleep(for: .milliseconds(100))
                access = Self.lines(process.logText).filter { $0["message"] as? String == "request" }
            } while access.count < 2 && ContinuousClock.now < deadline
            let log = process.logText
            let intake = try #require(access.first { $0["http.route"] as? String == "/notifications/appstore" }, "\(log)")
            #expect(intake["http.method"] as? String == "POST" && intake["http.status"] as? String == "200")
            #expect(Double(intake["duration_ms"] as? String ?? "") != nil)
            let requestID = try #require(intake["hb.request.id"] as? String)
            let accepted = Self.lines(log).filter { $0["message"] as? String == "notification accepted" }
            #expect(accepted.map { $0["hb.request.id"] as? String } == [requestID], "the intake's own line carries the same request id")
            let lookup = try #require(access.first { $0["http.status"] as? String == "404" }, "\(log)")
            #expect((lookup["http.route"] as? String)?.hasPrefix("/v1/subscribers/") == true)
            for secret in [receipt, RunningService.sharedSecret, RunningService.adminToken, "private-user-42"] {
                #expect(!log.contains(secret), "the log holds \(secret)")
            }
        }
    }
}
