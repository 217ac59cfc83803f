import AppStore
import Foundation
import HTTPClient
import Postgres
import Settings
import TestSupport
import Testing

/// Version 2 intake with Apple's own signed notifications (shared/fixtures/realworld).
@Suite("Signed (v2) notifications: verified, deduplicated by notificationUUID, applied", .serialized)
struct SignedIntakeTests {
    static let lokiBundle = "com.loki-project.loki-messenger"
    static let genuine = [
        "DID_RENEW_2025-10-01_sandbox.json", "SUBSCRIBED_RESUBSCRIBE_2025-10-02_sandbox.json",
        "DID_CHANGE_RENEWAL_STATUS_AUTO_RENEW_DISABLED_2025-10-02_sandbox.json", "EXPIRED_VOLUNTARY_2025-10-02_sandbox.json",
        "CONSUMPTION_REQUEST_2025-10-16_sandbox.json", "REFUND_2025-10-16_sandbox.json",
    ]

    static func fixture(_ folder: String, _ file: String) throws -> [UInt8] {
        let url = TestEnvironment.repositoryRoot().deletingLastPathComponent()
            .appendingPathComponent("shared/fixtures/realworld/\(folder)/\(file)")
        return Array(try Data(contentsOf: url))
    }

    static func signedPayload(_ body: [UInt8]) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        return try #require(object["signedPayload"] as? String)
    }

    /// A JWS's payload as JSON (no verification: for reading fixtures in tests).
    static func payload(of jws: String) throws -> [String: Any] {
        var part = String(jws.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while part.count % 4 != 0 { part += "=" }
        let data = try #require(Data(base64Encoded: part))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static let lokiApp = ["APPSTORE_BUNDLE_ID": lokiBundle, "APPSTORE_SHARED_SECRET": ""]

    /// Intake's clock for Apple's October 2025 fixtures: a few days after they were signed.
    static let fixtureWeek: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_760_900_000) }

    private func stored(_ service: RunningService) async throws -> Int {
        try await service.database.query("SELECT count(*) AS n FROM notifications")[0].decode("n")
    }

    @Test("Apple's genuine sandbox notifications are accepted once, stored as received, and applied")
    func genuineNotifications() async throws {
        try await RunningService.with(settings: Self.lokiApp, intakeClock: Self.fixtureWeek) { service in
            for file in Self.genuine {
                let body = try Self.fixture("v2-genuine", file)
                let first = try await service.postNotification(body)
                #expect(first.status == 200, "\(file): \(String(decoding: first.body, as: UTF8.self))")
                #expect(try jsonObject(first)["status"] as? String == "accepted")
                let again = try await service.postNotification(body)
                #expect(try jsonObject(again)["status"] as? String == "duplicate")
                #expect(try jsonObject(again)["id"] as? Int == jsonObject(first)["id"] as? Int)
                let uuid = try #require(try Self.payload(of: Self.signedPayload(body))["notificationUUID"] as? String)
                let row = try #require(
                    try await service.database.query(
                        """
                        SELECT source, environment, notification_type, body->>'signedPayload' AS jws FROM notifications
                        WHERE dedupe_key = \("v2:" + uuid)
                        """
                    ).first)
                #expect(try row.decode("source", as: String.self) == "v2")
                #expect(try row.decode("environment", as: String.self) == "Sandbox")
                // Stored without its certificate chain, which is stored once and put back exactly.
                let stored = try row.decode("jws", as: String.self)
                let received = try Self.signedPayload(body)
                #expect(stored.utf8.count * 2 < received.utf8.count)
                var chains: [String: String] = [:]
                for chain in try await service.database.query("SELECT id, chain FROM certificate_chains") {
                    chains[try chain.decode("id")] = try chain.decode("chain")
                }
                #expect(SignedPayloadChains.joined(stored, chains: chains) == received)
            }
            // Apple signed these six with one chain: it is stored once.
            #expect(try await service.database.query("SELECT count(*) AS n FROM certificate_chains")[0].decode("n", as: Int.self) == 1)
            try await service.waitUntilSettled()
            #expect(try await service.stateCounts() == ["processed": Self.genuine.count])
            let subtype = try await service.database.query(
                """
                SELECT notification_subtype FROM notifications WHERE notification_type = 'EXPIRED'
                """)[0].decode("notification_subtype", as: String?.self)
            #expect(subtype == "VOLUNTARY")
            let id: String = try await service.database.query("SELECT original_transaction_id FROM subscriptions")[0].decode(
                "original_transaction_id")
            let subscription = try jsonObject(try await service.get("/v1/subscriptions/\(id)"))
            #expect(subscription["source"] as? String == "v2")
            #expect(subscription["environment"] as? String == "Sandbox")
            #expect(subscription["bundle_id"] as? String == Self.lokiBundle)
            #expect(subscription["status"] as? String == "revoked", "the REFUND of 2025-10-16 is the newest fact")
            #expect(subscription["ownership"] as? String == "purchased")
            #expect(subscription.keys.contains("offer_type") && subscription.keys.contains("app_account_token"))

            // Operators read a v2 notification decoded, never its signatures.
            let refundID: Int = try await service.database.query("SELECT id FROM notifications WHERE notification_type = 'REFUND'")[0]
                .decode("id")
            let shown = try await CLI.run(["notifications", "show", String(refundID), "--json"], databaseURL: service.databaseURL)
            #expect(shown.status == 0)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
            let signed = try #require((document["body"] as? [String: Any])?["signedPayload"] as? [String: Any])
            #expect(signed["signature"] as? String == "<omitted>")
            let payload = try #require(signed["payload"] as? [String: Any])
            #expect(payload["notificationType"] as? String == "REFUND")
            let nested = try #require((payload["data"] as? [String: Any])?["signedTransactionInfo"] as? [String: Any])
            #expect((nested["payload"] as? [String: Any])?["originalTransactionId"] as? String == id)
            let refundJWS = try Self.signedPayload(try Self.fixture("v2-genuine", "REFUND_2025-10-16_sandbox.json"))
            #expect(!shown.stdout.contains(String(refundJWS.split(separator: ".")[2])), "a signature was printed")
            let listed = try await CLI.run(["notifications", "list"], databaseURL: service.databaseURL)
            #expect(listed.stdout.contains("EXPIRED/VOLUNTARY"))
        }
    }

    @Test("tampered, untrusted, foreign and malformed signed bodies: 401 or 400, nothing stored, never 'duplicate'")
    func rejected() async throws {
        try await RunningService.with(settings: Self.lokiApp, runsWorker: false, intakeClock: Self.fixtureWeek) { service in
            let genuine = try Self.fixture("v2-genuine", "DID_RENEW_2025-10-01_sandbox.json")
            #expect(try await service.postNotification(genuine).status == 200)
            let jws = try Self.signedPayload(genuine)
            let parts = jws.split(separator: ".").map(String.init)
            func body(_ payload: String) -> [UInt8] { NotificationBodies.bytes(["signedPayload": payload]) }
            // The payload re-encoded with one value changed (same notificationUUID): forged, not a duplicate.
            var forged = try Self.payload(of: jws)
            forged["signedDate"] = (forged["signedDate"] as? Int ?? 0) + 1
            let forgedPart = try JSONSerialization.data(withJSONObject: forged).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            let otherSignature = try Self.signedPayload(try Self.fixture("v2-genuine", "REFUND_2025-10-16_sandbox.json")).split(
                separator: ".")[2]
            let cases: [(String, [UInt8], Int)] = [
                ("payload changed", body([parts[0], forgedPart, parts[2]].joined(separator: ".")), 401),
                ("signature of another message", body([parts[0], parts[1], String(otherSignature)].joined(separator: ".")), 401),
                (
                    "Apple's library test CA (untrusted here)",
                    try Self.fixture("v2-test-signed", "TEST_apple-library-testNotification.json"), 401
                ),
                ("not a JWS", body("abc"), 400),
                ("four parts", body(parts.joined(separator: ".") + ".x"), 400),
                ("signedPayload not a string", NotificationBodies.bytes(["signedPayload": 42]), 400),
            ]
            for (name, bytes, status) in cases {
                let response = try await service.postNotification(bytes)
                #expect(response.status == status, "\(name): \(String(decoding: response.body, as: UTF8.self))")
                #expect(try jsonObject(response)["status"] == nil, "\(name)")
            }
            #expect(try await stored(service) == 1)
        }
        // The same genuine notification for an app that is not configured.
        try await RunningService.with(runsWorker: false, intakeClock: Self.fixtureWeek) { service in
            let response = try await service.postNotification(try Self.fixture("v2-genuine", "DID_RENEW_2025-10-01_sandbox.json"))
            #expect(response.status == 401)
            #expect(try await stored(service) == 0)
        }
    }

    @Test("a genuine notification is taken until 180 days after Apple signed it, and refused as a replay after")
    func freshness() async throws {
        let body = try Self.fixture("v2-genuine", "REFUND_2025-10-16_sandbox.json")
        let signed = Date(timeIntervalSince1970: 1_760_592_122.788)
        let day: TimeInterval = 86_400
        let tooLate: @Sendable () -> Date = { signed.addingTimeInterval(181 * day) }
        let stillFresh: @Sendable () -> Date = { signed.addingTimeInterval(179 * day) }
        let bounded = Self.lokiApp.merging(["NOTIFICATION_MAX_AGE_DAYS": "180"]) { _, new in new }
        try await RunningService.with(settings: bounded, runsWorker: false, intakeClock: tooLate) { service in
            let response = try await service.postNotification(body)
            #expect(response.status == 401)
            #expect(try jsonObject(response)["message"] as? String == NotificationFreshness(days: 180).refusal)
            #expect(try await stored(service) == 0)
        }
        try await RunningService.with(settings: bounded, runsWorker: false, intakeClock: stillFresh) { service in
            let response = try await service.postNotification(body)
            #expect(response.status == 200)
            #expect(try await stored(service) == 1)
        }
    }

    @Test("with APPSTORE_ROOT_CERTIFICATES naming Apple's test CA, the library's test notification verifies")
    func configuredRoots() async throws {
        let root = TestEnvironment.repositoryRoot().deletingLastPathComponent().appendingPathComponent(
            "shared/fixtures/realworld/apple-library-testCA.der")
        let settings = ["APPSTORE_BUNDLE_ID": "com.example", "APPSTORE_SHARED_SECRET": "", "APPSTORE_ROOT_CERTIFICATES": root.path]
        // A few days after Apple's library signed its test notification (2023-04-12).
        let afterSigning: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_681_500_000) }
        try await RunningService.with(settings: settings, runsWorker: false, intakeClock: afterSigning) { service in
            let response = try await service.postNotification(
                try Self.fixture("v2-test-signed", "TEST_apple-library-testNotification.json"))
            #expect(response.status == 200)
            // Apple's own genuine notifications do not chain to the test CA.
            #expect(try await service.postNotification(try Self.fixture("v2-genuine", "TEST_2022-09-02_sandbox.json")).status == 401)
        }
    }

    @Test("POST /v1/transactions: a StoreKit 2 signed transaction links the user; tampered → 422; transaction_id → 400")
    func signedTransactions() async throws {
        try await RunningService.with(settings: Self.lokiApp, runsWorker: false) { service in
            let notification = try Self.payload(of: Self.signedPayload(try Self.fixture("v2-genuine", "DID_RENEW_2025-10-01_sandbox.json")))
            let data = try #require(notification["data"] as? [String: Any])
            let transaction = try #require(data["signedTransactionInfo"] as? String)
            let response = try await service.post(
                "/v1/transactions", ["app_user_id": "user-7", "signed_transaction": transaction], timeout: .seconds(10))
            #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
            let subscriber = try jsonObject(response)
            #expect(subscriber["app_user_id"] as? String == "user-7")
            let subscriptions = try #require(subscriber["subscriptions"] as? [[String: Any]])
            #expect(subscriptions.count == 1)
            #expect(subscriptions.first?["source"] as? String == "v2")

            var tampered = Array(transaction)
            tampered[tampered.count - 5] = tampered[tampered.count - 5] == "A" ? "B" : "A"
            #expect(
                try await service.post(
                    "/v1/transactions", ["app_user_id": "user-8", "signed_transaction": String(tampered)], timeout: .seconds(10)
                ).status == 422)
            #expect(
                try await service.post(
                    "/v1/transactions", ["app_user_id": "user-8", "transaction_id": "2000001031579336"], timeout: .seconds(10)
                ).status == 400)
            #expect(try await service.get("/v1/subscribers/user-8").status == 404)
        }
    }
}
