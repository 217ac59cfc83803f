import Foundation
import HTTPClient
import Postgres
import TestSupport
import Testing

@Suite("Intake: POST /notifications/appstore")
struct IntakeTests {
    private func storedCount(_ service: RunningService) async throws -> Int {
        try await service.database.query("SELECT count(*) AS n FROM notifications")[0].decode("n")
    }

    @Test("a valid notification is stored without its password and acknowledged; a redelivery is a duplicate")
    func acceptAndDeduplicate() async throws {
        try await RunningService.with(runsWorker: false) { service in
            let body = NotificationBodies.bytes(NotificationBodies.v1())
            let first = try await service.postNotification(body)
            #expect(first.status == 200)
            let answer = try jsonObject(first)
            #expect(answer["status"] as? String == "accepted")
            let id = try #require(answer["id"] as? Int)

            let again = try await service.postNotification(body)
            #expect(again.status == 200)
            #expect(try jsonObject(again)["status"] as? String == "duplicate")
            #expect(try jsonObject(again)["id"] as? Int == id)

            let row = try #require(
                try await service.database.query(
                    """
                    SELECT source, state, notification_type, environment, bundle_id, original_transaction_id, body::text AS body
                    FROM notifications
                    """
                ).first)
            #expect(try row.decode("source", as: String.self) == "v1")
            #expect(try row.decode("state", as: String.self) == "pending")
            #expect(try row.decode("notification_type", as: String.self) == "INITIAL_BUY")
            #expect(try row.decode("environment", as: String.self) == "Production")
            #expect(try row.decode("original_transaction_id", as: String.self) == "1000000000000001")
            let stored = try row.decode("body", as: String.self)
            #expect(!stored.contains("password"))
            #expect(!stored.contains(RunningService.sharedSecret))
            #expect(try await storedCount(service) == 1)
        }
    }

    @Test("unknown notification types are accepted like any other")
    func unknownType() async throws {
        try await RunningService.with(runsWorker: false) { service in
            let response = try await service.postNotification(NotificationBodies.bytes(NotificationBodies.v1(type: "SOMETHING_NEW_2027")))
            #expect(response.status == 200)
            #expect(try await storedCount(service) == 1)
        }
    }

    /// A field the worker never trusts, written empty as some senders do, is absent: the
    /// notification is taken (refusing it would make Apple retry it and then lose it).
    @Test("an empty auto_renew_status_change_date_ms is accepted as absent")
    func emptyOptionalDate() async throws {
        try await RunningService.with(runsWorker: false) { service in
            var body = NotificationBodies.v1(type: "DID_CHANGE_RENEWAL_STATUS")
            body["auto_renew_status_change_date_ms"] = ""
            let response = try await service.postNotification(NotificationBodies.bytes(body))
            #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
            #expect(try await storedCount(service) == 1)
        }
    }

    struct BadInput: Sendable, CustomTestStringConvertible {
        let name: String
        let body: [UInt8]
        let contentType: String?
        let status: Int
        let code: String
        var testDescription: String { name }
    }

    static let badInputs: [BadInput] = {
        let valid = NotificationBodies.v1()
        var noType = valid
        noType.removeValue(forKey: "notification_type")
        var wrongReceiptType = valid
        wrongReceiptType["unified_receipt"] = "not an object"
        let validBytes = NotificationBodies.bytes(valid)
        return [
            BadInput(
                name: "wrong shared secret", body: NotificationBodies.bytes(NotificationBodies.v1(password: "wrong")),
                contentType: "application/json", status: 401, code: "unauthorized"),
            BadInput(
                name: "unknown bundle id", body: NotificationBodies.bytes(NotificationBodies.v1(bundleID: "com.other.app")),
                contentType: "application/json", status: 401, code: "unauthorized"),
            BadInput(
                name: "malformed JSON", body: Array("{\"notification_type\": ".utf8), contentType: "application/json", status: 400,
                code: "malformed"),
            BadInput(
                name: "truncated body", body: Array(validBytes.prefix(validBytes.count / 2)), contentType: "application/json", status: 400,
                code: "malformed"),
            BadInput(name: "empty body", body: [], contentType: "application/json", status: 400, code: "malformed"),
            BadInput(name: "JSON array", body: Array("[1, 2, 3]".utf8), contentType: "application/json", status: 400, code: "malformed"),
            BadInput(
                name: "notification_type missing", body: NotificationBodies.bytes(noType), contentType: "application/json", status: 400,
                code: "malformed"),
            BadInput(
                name: "unified_receipt of the wrong type", body: NotificationBodies.bytes(wrongReceiptType),
                contentType: "application/json", status: 400, code: "malformed"),
            BadInput(
                name: "oversized body", body: Array(repeating: UInt8(ascii: " "), count: 70_000) + validBytes,
                contentType: "application/json", status: 413, code: "too_large"),
            BadInput(name: "wrong content type", body: validBytes, contentType: "text/plain", status: 415, code: "unsupported_media_type"),
            BadInput(name: "no content type", body: validBytes, contentType: nil, status: 415, code: "unsupported_media_type"),
            BadInput(
                name: "a number below numeric's scale", body: Array(#"{"huge": 1.5e-16383, "#.utf8) + validBytes.dropFirst(),
                contentType: "application/json", status: 400, code: "malformed"),
            BadInput(
                name: "a number beyond numeric's digits", body: Array(#"{"huge": [1e131072], "#.utf8) + validBytes.dropFirst(),
                contentType: "application/json", status: 400, code: "malformed"),
            BadInput(
                name: "version 2 signed payload", body: Array(#"{"signedPayload":"eyJ.x.y"}"#.utf8), contentType: "application/json",
                status: 400, code: "malformed"),
        ]
    }()

    @Test("bad input gets its status and error body, and nothing is stored", arguments: badInputs)
    func badInput(_ input: BadInput) async throws {
        try await RunningService.with(settings: ["MAX_BODY_BYTES": "65536"], runsWorker: false) { service in
            let response = try await service.postNotification(input.body, contentType: input.contentType)
            #expect(response.status == input.status)
            let error = try jsonObject(response)
            #expect(error["error"] as? String == input.code)
            #expect((error["message"] as? String)?.isEmpty == false)
            #expect(try await storedCount(service) == 0)
        }
    }

    @Test("an unreachable database answers 503 so Apple retries, and intake heals when it is back")
    func databaseDown() async throws {
        try await RunningService.with(runsWorker: false) { service in
            let name = try await service.database.query("SELECT current_database() AS db")[0].decode("db", as: String.self)
            let admin = service.database
            // Refuse new connections and drop the pool's: the service must notice, not hang or 200.
            try await TestEnvironment.runAdmin("ALTER DATABASE \"\(name)\" ALLOW_CONNECTIONS false", url: TestEnvironment.adminURL())
            try await admin.execute(
                """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE datname = current_database() AND application_name = 'subscriptiond' AND pid <> pg_backend_pid()
                """)
            let down = try await service.postNotification(NotificationBodies.bytes(NotificationBodies.v1()), retriesUnavailable: false)
            #expect(down.status == 503)
            #expect(try jsonObject(down)["error"] as? String == "unavailable")
            let ready = try await service.get("/health/ready", token: nil)
            #expect(ready.status == 503)

            try await TestEnvironment.runAdmin("ALTER DATABASE \"\(name)\" ALLOW_CONNECTIONS true", url: TestEnvironment.adminURL())
            let back = try await service.postNotification(NotificationBodies.bytes(NotificationBodies.v1()))
            #expect(back.status == 200)
            #expect(try await storedCount(service) == 1)
        }
    }
}
