import AppStoreSimulator
import Crypto
import Foundation
import HTTPClient
import Postgres
import Server
import Settings
import Testing

/// The app checks after a signature verifies: bundle id, environment and, in Production,
/// `appAppleId` — with payloads signed by a test PKI that subscriptiond is told to trust.
@Suite("Signed notifications: app identity, unknown types, TEST", .serialized)
struct SignedAppIdentityTests {
    static let appleID = "1234567890"

    struct Fixture: Sendable {
        let signer: JWSSigner
        let rootPath: String
    }

    static func fixture() throws -> Fixture {
        let pki = try SimPKI.generate()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("identity-root-\(UUID().uuidString).pem")
        try Data(pki.root.pem.utf8).write(to: root)
        return Fixture(signer: JWSSigner(pki: pki), rootPath: root.path)
    }

    /// A signed notification body (no nested transaction: the app checks are on the outer payload).
    static func body(
        _ signer: JWSSigner, type: String = "DID_RENEW", bundleID: String = RunningService.bundleID,
        environment: String = "Production", appAppleID: Any? = 1_234_567_890
    ) throws -> [UInt8] {
        var data: [String: Any] = ["bundleId": bundleID, "environment": environment, "bundleVersion": "1"]
        if let appAppleID { data["appAppleId"] = appAppleID }
        let payload: [String: Any] = [
            "notificationType": type, "notificationUUID": UUID().uuidString.lowercased(), "version": "2.0",
            "signedDate": Int64(Date().timeIntervalSince1970 * 1000), "data": data,
        ]
        let jws = try signer.sign(payload: Array(try JSONSerialization.data(withJSONObject: payload)))
        return NotificationBodies.bytes(["signedPayload": jws])
    }

    @Test("wrong bundle id, wrong or missing appAppleId in Production: 401 and nothing stored; Sandbox needs no appAppleId")
    func identity() async throws {
        let fixture = try Self.fixture()
        defer { try? FileManager.default.removeItem(atPath: fixture.rootPath) }
        let configured = ["APPSTORE_ROOT_CERTIFICATES": fixture.rootPath, "APPSTORE_APP_APPLE_ID": Self.appleID]
        try await RunningService.with(settings: configured, runsWorker: false) { service in
            let cases: [(String, [UInt8], Int)] = [
                ("right app, Production", try Self.body(fixture.signer), 200),
                ("appAppleId as text", try Self.body(fixture.signer, appAppleID: Self.appleID), 200),
                ("wrong bundle id", try Self.body(fixture.signer, bundleID: "com.attacker.other"), 401),
                ("wrong appAppleId", try Self.body(fixture.signer, appAppleID: 987_654_321), 401),
                ("no appAppleId in Production", try Self.body(fixture.signer, appAppleID: nil), 401),
                ("no appAppleId in Sandbox", try Self.body(fixture.signer, environment: "Sandbox", appAppleID: nil), 200),
                ("unknown environment", try Self.body(fixture.signer, environment: "Staging"), 401),
            ]
            for (name, body, status) in cases {
                let response = try await service.postNotification(body)
                #expect(response.status == status, "\(name): \(String(decoding: response.body, as: UTF8.self))")
            }
            #expect(try await service.stateCounts() == ["pending": 3])
        }
        // An app configured without app_apple_id cannot accept Production v2 at all.
        try await RunningService.with(settings: ["APPSTORE_ROOT_CERTIFICATES": fixture.rootPath], runsWorker: false) { service in
            let production = try await service.postNotification(try Self.body(fixture.signer))
            let sandbox = try await service.postNotification(try Self.body(fixture.signer, environment: "Sandbox"))
            #expect(production.status == 401)
            #expect(sandbox.status == 200)
        }
        // Apple's real root does not vouch for the test PKI.
        try await RunningService.with(settings: ["APPSTORE_APP_APPLE_ID": Self.appleID], runsWorker: false) { service in
            let response = try await service.postNotification(try Self.body(fixture.signer))
            #expect(response.status == 401)
            #expect(try await service.stateCounts().isEmpty)
        }
    }

    @Test("an unknown type is stored and acknowledged; TEST and unknown types end processed without facts")
    func unknownTypesAndTest() async throws {
        let fixture = try Self.fixture()
        defer { try? FileManager.default.removeItem(atPath: fixture.rootPath) }
        let settings = ["APPSTORE_ROOT_CERTIFICATES": fixture.rootPath, "APPSTORE_APP_APPLE_ID": Self.appleID]
        try await RunningService.with(settings: settings) { service in
            #expect(try await service.postNotification(try Self.body(fixture.signer, type: "SOMETHING_NEW_IN_2027")).status == 200)
            #expect(
                try await service.postNotification(try Self.body(fixture.signer, type: "TEST", environment: "Sandbox", appAppleID: nil))
                    .status == 200)
            try await service.waitUntilSettled()
            #expect(try await service.stateCounts() == ["processed": 2])
            let types: [String] = try await service.database.query("SELECT notification_type FROM notifications ORDER BY id").map {
                try $0.decode("notification_type")
            }
            #expect(types == ["SOMETHING_NEW_IN_2027", "TEST"])
            // Each type's handling says what it recorded (SignedNotificationHandling).
            let notes: [String?] = try await service.database.query(
                """
                SELECT a.error FROM notification_attempts a JOIN notifications n ON n.id = a.notification_id ORDER BY n.id
                """
            ).map { try $0.decode("error") }
            #expect(
                notes == ["SOMETHING_NEW_IN_2027 carries no transaction: recorded", "TEST: Apple's test notification arrived; recorded"])
        }
    }

    @Test("a configuration file with app_apple_id and no shared secret merges with the variables; contradictions name both")
    func configuration() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("apps-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(
            #"{"apps":[{"bundle_id":"com.example.v2only","app_apple_id":1234567890},{"bundle_id":"com.example.app","shared_secret":"s3cret-0123456789"}]}"#
                .utf8
        ).write(to: file)
        let loaded = try ServiceConfigurationProbe.load([
            "SUBSCRIPTIOND_CONFIG": file.path, "APPSTORE_BUNDLE_ID": "com.example.app", "APPSTORE_APP_APPLE_ID": "555",
        ])
        #expect(loaded.contains("com.example.v2only: secret=no apple_id=1234567890"))
        #expect(loaded.contains("com.example.app: secret=yes apple_id=555"))
        #expect {
            try ServiceConfigurationProbe.load([
                "SUBSCRIPTIOND_CONFIG": file.path, "APPSTORE_BUNDLE_ID": "com.example.v2only", "APPSTORE_APP_APPLE_ID": "555",
            ])
        } throws: { "\($0)".contains("APPSTORE_APP_APPLE_ID") && "\($0)".contains("SUBSCRIPTIOND_CONFIG") }
        #expect { try ServiceConfigurationProbe.load(["APPSTORE_APP_APPLE_ID": "555"]) } throws: { "\($0)".contains("APPSTORE_BUNDLE_ID") }
        #expect { try ServiceConfigurationProbe.load(["APPSTORE_BUNDLE_ID": "a.b", "APPSTORE_APP_APPLE_ID": "12ab"]) } throws: {
            "\($0)".contains("numeric")
        }
    }
}

/// Reads a configuration and describes its apps, one line each.
enum ServiceConfigurationProbe {
    static func load(_ environment: [String: String]) throws -> [String] {
        let configuration = try ServiceConfiguration.load(environment: environment)
        return configuration.apps.bundleIDs.compactMap { configuration.apps.app(bundleID: $0) }.map {
            "\($0.bundleID): secret=\($0.sharedSecret == nil ? "no" : "yes") apple_id=\($0.appAppleID ?? "-")"
        }
    }
}

@Suite("App Store Server API credentials in the configuration")
struct AppStoreAPIKeyConfigurationTests {
    private func environment(_ extra: [String: String]) -> [String: String] {
        ["APPSTORE_BUNDLE_ID": "com.example.app", "APPSTORE_SHARED_SECRET": "s3cret-0123456789"].merging(extra) { _, new in new }
    }

    @Test("a readable .p8 key is loaded; a missing, unreadable or non-key file, or a partial set, stops startup naming it")
    func keys() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("AuthKey_ABC123DEFG.p8")
        try Data(try SimPKI.generate().leaf.key.pemRepresentation.utf8).write(to: keyFile)
        let notAKey = directory.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: notAKey)
        for file in [keyFile, notAKey] { try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path) }
        let api = ["APPSTORE_ISSUER_ID": "57246542-96fe-1a63-e053-0824d011072a", "APPSTORE_KEY_ID": "ABC123DEFG"]

        let loaded = try ServiceConfiguration.load(
            environment: environment(api.merging(["APPSTORE_PRIVATE_KEY_FILE": keyFile.path]) { a, _ in a }))
        let key = try #require(loaded.apps.app(bundleID: "com.example.app")?.apiKey)
        #expect(key.keyID == "ABC123DEFG" && key.privateKeyFile == keyFile.path)
        #expect(!"\(key)".contains("PRIVATE KEY"), "the key must never print")
        #expect(loaded.appStoreAPIURL == "https://api.storekit.apple.com")

        #expect {
            try ServiceConfiguration.load(
                environment: environment(api.merging(["APPSTORE_PRIVATE_KEY_FILE": "/nonexistent/k.p8"]) { a, _ in a }))
        } throws: { "\($0)".contains("APPSTORE_PRIVATE_KEY_FILE") && "\($0)".contains("/nonexistent/k.p8") }
        #expect {
            try ServiceConfiguration.load(environment: environment(api.merging(["APPSTORE_PRIVATE_KEY_FILE": notAKey.path]) { a, _ in a }))
        } throws: { "\($0)".contains("not an App Store Connect .p8") }
        // A key other users of the host may read stops startup, naming the file and the fix.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyFile.path)
        #expect {
            try ServiceConfiguration.load(environment: environment(api.merging(["APPSTORE_PRIVATE_KEY_FILE": keyFile.path]) { a, _ in a }))
        } throws: {
            "\($0)".contains("APPSTORE_PRIVATE_KEY_FILE") && "\($0)".contains("mode 644") && "\($0)".contains("chmod o-rwx \(keyFile.path)")
        }
        #expect { try ServiceConfiguration.load(environment: environment(["APPSTORE_KEY_ID": "ABC123DEFG"])) } throws: {
            "\($0)".contains("APPSTORE_ISSUER_ID")
        }
        #expect { try ServiceConfiguration.load(environment: environment(["APPSTORE_API_URL": "http://api.example.com"])) } throws: {
            "\($0)".contains("APPSTORE_API_URL")
        }
    }

    @Test("a shared_secret_file other users may read stops startup naming it; a private one is loaded")
    func sharedSecretFilePermissions() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = directory.appendingPathComponent("secret-app1")
        try Data("file-shared-secret-0123456789\n".utf8).write(to: secret)
        let config = directory.appendingPathComponent("apps.json")
        try Data(#"{"apps":[{"bundle_id":"com.example.file","shared_secret_file":"\#(secret.path)"}]}"#.utf8).write(to: config)
        let settings = ["SUBSCRIPTIOND_CONFIG": config.path, "DATABASE_URL": "postgresql://localhost/x"]

        try FileManager.default.setAttributes([.posixPermissions: 0o604], ofItemAtPath: secret.path)
        #expect { try ServiceConfiguration.load(environment: settings) } throws: {
            "\($0)".contains("shared_secret_file of com.example.file") && "\($0)".contains("chmod o-rwx \(secret.path)")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: secret.path)
        let loaded = try ServiceConfiguration.load(environment: settings)
        #expect(loaded.apps.app(bundleID: "com.example.file")?.sharedSecret?.matches("file-shared-secret-0123456789") == true)
    }

    @Test("a deployment counts as loopback only when every Apple endpoint is on this machine")
    func loopbackDeployment() throws {
        #expect(try !ServiceConfiguration.load(environment: environment([:])).appleEndpointsAreLoopback)
        let local = [
            "VERIFY_RECEIPT_URL": "http://127.0.0.1:1/verifyReceipt", "VERIFY_RECEIPT_SANDBOX_URL": "http://127.0.0.1:1/sandbox",
            "APPSTORE_API_URL": "http://localhost:2", "APPSTORE_API_SANDBOX_URL": "http://[::1]:3",
        ]
        #expect(try ServiceConfiguration.load(environment: environment(local)).appleEndpointsAreLoopback)
        let mixed = local.merging(["APPSTORE_API_URL": "https://api.storekit.apple.com"]) { _, new in new }
        #expect(try !ServiceConfiguration.load(environment: environment(mixed)).appleEndpointsAreLoopback)
    }
}
