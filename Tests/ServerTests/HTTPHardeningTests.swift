import Foundation
import HTTPClient
import Postgres
import Server
import Settings
import TestSupport
import Testing

@Suite("HTTP hardening: bounded waits, closed connections, protected endpoints, refused inputs")
struct HTTPHardeningTests {
    private var port: (RunningService) -> Int { { Int($0.baseURL.split(separator: ":").last ?? "0") ?? 0 } }

    @Test("a 413 answers at once and closes the connection instead of reading the refused body")
    func tooLargeClosesTheConnection() async throws {
        try await RunningService.with(settings: ["MAX_BODY_BYTES": "1024"], runsWorker: false) { service in
            let connection = try RawConnection(port: port(service), readTimeout: .seconds(30))
            connection.send(
                "POST /notifications/appstore HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n")
            connection.send(String(repeating: "x", count: 4_096))
            let (text, closed) = await connection.readAll()
            #expect(text.hasPrefix("HTTP/1.1 413"))
            #expect(text.lowercased().contains("connection: close"))
            #expect(closed, "the server kept the connection open to read the rest of the body")
        }
    }

    @Test("a client that sends half a request and stalls is disconnected after the idle timeout")
    func stalledClientIsClosed() async throws {
        try await RunningService.with(settings: ["HTTP_IDLE_TIMEOUT_MS": "500"], runsWorker: false) { service in
            let connection = try RawConnection(port: port(service), readTimeout: .seconds(10))
            let started = ContinuousClock.now
            connection.send("POST /notifications/appstore HTTP/1.1\r\nHost: x\r\n")
            let (_, closed) = await connection.readAll()
            #expect(closed)
            #expect(ContinuousClock.now - started < .seconds(15), "an idle timeout of 0.5 s, not the kernel's")
        }
    }

    @Test("500 idle connections do not keep a normal request from being served")
    func idleConnectionsDoNotStarveRequests() async throws {
        try await RunningService.with(runsWorker: false) { service in
            // Another client's 500 (it holds its address's cap of 256; the rest are refused).
            let idle = try await RawConnection.open(500, port: port(service), from: "127.0.0.2")
            let response = try await service.postNotification(NotificationBodies.bytes(NotificationBodies.v1()))
            #expect(response.status == 200)
            #expect(try await service.get("/health/ready", token: nil).status == 200)
            withExtendedLifetime(idle) {}
        }
    }

    @Test("METRICS_TOKEN puts /metrics behind a bearer token")
    func metricsToken() async throws {
        let token = "metrics-token-0123456789abcdef"
        try await RunningService.with(settings: ["METRICS_TOKEN": token], runsWorker: false) { service in
            let anonymous = try await service.get("/metrics", token: nil)
            let wrong = try await service.get("/metrics", token: "wrong-token-0123456789")
            let right = try await service.get("/metrics", token: token)
            #expect(anonymous.status == 401)
            #expect(wrong.status == 401)
            #expect(right.status == 200)
        }
    }

    @Test(
        "plain-text upstream URLs are refused at startup except on loopback",
        arguments: [
            ("http://buy.itunes.apple.com/verifyReceipt", false), ("http://10.0.0.7:9000/verifyReceipt", false),
            ("ftp://example.com/x", false), ("https://buy.itunes.apple.com/verifyReceipt", true),
            ("http://127.0.0.1:9000/verifyReceipt", true), ("http://localhost:9000/verifyReceipt", true), ("http://[::1]:9000/v", true),
        ])
    func upstreamURLs(_ url: String, accepted: Bool) throws {
        let environment = [
            "APPSTORE_BUNDLE_ID": "com.example.app", "APPSTORE_SHARED_SECRET": "secret-0123456789", "VERIFY_RECEIPT_URL": url,
        ]
        if accepted {
            #expect(try ServiceConfiguration.load(environment: environment).verifyReceiptURL == url)
        } else {
            #expect { try ServiceConfiguration.load(environment: environment) } throws: { "\($0)".contains("VERIFY_RECEIPT_URL") }
        }
    }

    struct OddBody: Sendable, CustomTestStringConvertible {
        let name: String
        let body: [UInt8]
        let mentions: String
        var testDescription: String { name }
    }

    static let oddBodies: [OddBody] = {
        func body(_ extra: [String: Any] = [:], transaction: [String: Any] = [:], id: String = "1000000000000001") -> [UInt8] {
            var extra = extra
            if !transaction.isEmpty { extra["transaction"] = transaction }
            return NotificationBodies.bytes(NotificationBodies.v1(originalTransactionID: id, transactionID: id, extra: extra))
        }
        return [
            OddBody(
                name: "expires_date_ms far beyond 9999", body: body(transaction: ["expires_date_ms": "100000000000000000000"]),
                mentions: "expires_date_ms"),
            OddBody(name: "purchase_date_ms negative", body: body(transaction: ["purchase_date_ms": "-5"]), mentions: "purchase_date_ms"),
            OddBody(
                name: "cancellation_date_ms fractional", body: body(transaction: ["cancellation_date_ms": "1500000000000.5"]),
                mentions: "cancellation_date_ms"),
            OddBody(
                name: "auto_renew_status_change_date_ms hex", body: body(["auto_renew_status_change_date_ms": "0x7fffffff"]),
                mentions: "auto_renew_status_change_date_ms"),
            OddBody(
                name: "10,000-character original transaction id", body: body(id: String(repeating: "9", count: 10_000)),
                mentions: "original_transaction_id"),
            OddBody(name: "NUL inside an id", body: body(id: "1000\u{0}0001"), mentions: "control character"),
            OddBody(name: "NUL inside another field", body: body(["bvrs": "1\u{0}2"]), mentions: "NUL"),
        ]
    }()

    @Test("a body with a duplicate key is refused: it could be authenticated as one app and stored as another")
    func duplicateKeys() async throws {
        try await RunningService.with(runsWorker: false) { service in
            var text = String(decoding: NotificationBodies.bytes(NotificationBodies.v1()), as: UTF8.self)
            text.removeLast()
            text += #","bid":"com.attacker.other"}"#
            let response = try await service.postNotification(Array(text.utf8))
            #expect(response.status == 400)
            #expect((try jsonObject(response)["message"] as? String)?.contains(#"duplicate key "bid""#) == true)
            #expect(try await service.stateCounts().isEmpty)
        }
    }

    @Test("odd values are refused at intake with a 400 naming the field, and nothing is stored", arguments: oddBodies)
    func oddValuesAreRefused(_ odd: OddBody) async throws {
        try await RunningService.with(runsWorker: false) { service in
            let response = try await service.postNotification(odd.body)
            #expect(response.status == 400)
            let answer = try jsonObject(response)
            #expect(answer["error"] as? String == "malformed")
            #expect((answer["message"] as? String)?.contains(odd.mentions) == true, "\(answer)")
            #expect(try await service.stateCounts().isEmpty)
        }
    }
}

@Suite("Upstream hardening: bounded waits for the app's backend, permanent transport failures")
struct UpstreamHardeningTests {
    private func postReceipt(_ service: RunningService) async throws -> HTTPClient.HTTPResponse {
        try await service.post("/v1/receipts", ["app_user_id": "alice", "receipt_data": "cmVjZWlwdA=="], timeout: .seconds(30))
    }

    @Test("POST /v1/receipts answers 202 pending after RECEIPT_WAIT_MS while Apple hangs, and the worker finishes it")
    func receiptWaitIsBounded() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        verify.answerOneActivePeriodPerReceipt()
        // Apple hangs for 20 s and the upstream timeout is 15 s: only RECEIPT_WAIT_MS (0.5 s)
        // can make the answer come back before that, however loaded the machine (the bound
        // is the upstream timeout less a second, not a speed).
        verify.inject([.hang(.seconds(20))])
        try await RunningService.with(verifyServer: verify, settings: ["RECEIPT_WAIT_MS": "500", "VERIFY_TIMEOUT_MS": "15000"]) { service in
            let started = ContinuousClock.now
            let response = try await postReceipt(service)
            #expect(response.status == 202)
            #expect(ContinuousClock.now - started < .seconds(14), "waited \(ContinuousClock.now - started) for Apple")
            try await service.waitUntilSettled()
            #expect(try await service.stateCounts() == ["processed": 1])
            #expect(try await service.get("/v1/subscribers/alice").status == 200)
        }
    }

    @Test("an untrusted certificate upstream is permanent: the notification ends dead at once instead of retrying for a day")
    func tlsFailureIsPermanent() async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        // A real TLS peer whose self-signed certificate nobody trusts (a handshake that merely
        // breaks off is retried instead: HTTPClient's tests).
        let untrusted = try await UntrustedTLSServer()
        defer { untrusted.stop() }
        let settings = ["VERIFY_RECEIPT_URL": untrusted.url("/verifyReceipt")]
        try await RunningService.with(verifyServer: verify, settings: settings) { service in
            #expect(try await service.postNotification(NotificationBodies.bytes(NotificationBodies.v1())).status == 200)
            try await service.waitUntilSettled()
            #expect(try await service.stateCounts() == ["dead": 1])
            let row = try #require(try await service.database.query("SELECT attempts, last_error FROM notifications").first)
            #expect(try row.decode("attempts", as: Int.self) == 1)
            #expect(try row.decode("last_error", as: String.self).contains("tls"))
        }
    }
}
