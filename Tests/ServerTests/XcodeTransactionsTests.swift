import AppStore
import Foundation
import HTTPClient
import Postgres
import Settings
import SigningTestSupport
import Subscriptions
import TestSupport
import Testing

/// StoreKit Testing in Xcode (issue 25, part 4): a purchase signed by the local certificate of
/// a `.storekit` configuration is accepted by `POST /v1/transactions` only for an app whose
/// `xcode_certificate_file` is that certificate, stored with the environment `Xcode`, grants
/// only there, and `subscriptionctl purge --environment Xcode` removes it.
@Suite("StoreKit Testing in Xcode transactions", .serialized)
struct XcodeTransactionsTests {
    /// The `.storekit` configuration's certificate (a self-signed P-256 one, as Xcode makes)
    /// saved as Xcode saves it (DER), and a configuration file naming it.
    struct Fixture {
        let storeKit: TestPKI.Issued
        let files: [String]
        let settings: [String: String]

        init(accepting: Bool = true) throws {
            storeKit = try TestPKI().root
            let certificate = FileManager.default.temporaryDirectory.appendingPathComponent("StoreKitTestCertificate-\(UUID()).cer")
            try Data(storeKit.der).write(to: certificate)
            let xcode = accepting ? #","xcode_certificate_file":"\#(certificate.path)""# : ""
            let config = try TemporaryFile.write(
                #"{"apps":[{"bundle_id":"\#(RunningService.bundleID)"\#(xcode)}]}"#, name: "xcode-config.json")
            files = [certificate.path, config]
            // Every Apple endpoint on loopback (as with appstore-sim): Xcode purchases are refused
            // beside real Apple endpoints (XcodeStartupGuardTests).
            settings = ["SUBSCRIPTIOND_CONFIG": config].merging(XcodeStartupGuardTests.loopbackAppleEndpoints) { a, _ in a }
        }

        /// A subscription bought in Xcode's StoreKit Testing: `x5c` holds the one local
        /// certificate, the payload says `Xcode`; signed with `key` (default: the certificate's own).
        func transaction(
            id: String = "0", environment: String = "Xcode", signer: TestPKI.Issued? = nil, x5c: [String]? = nil
        ) throws -> String {
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let payload: [String: Any] = [
                "transactionId": id, "originalTransactionId": id, "bundleId": RunningService.bundleID,
                "productId": "com.example.pro.monthly", "environment": environment, "purchaseDate": now - 60_000,
                "expiresDate": now + 2_592_000_000, "signedDate": now, "type": "Auto-Renewable Subscription",
                "inAppOwnershipType": "PURCHASED",
            ]
            return try TestJWS.sign(
                payload: String(decoding: try JSONSerialization.data(withJSONObject: payload), as: UTF8.self),
                x5c: x5c ?? [storeKit.base64], key: (signer ?? storeKit).key)
        }

        func remove() {
            for file in files { try? FileManager.default.removeItem(atPath: file) }
        }
    }

    private func subscriber(_ user: String, _ service: RunningService) async throws -> [String: Any]? {
        let response = try await service.get("/v1/subscribers/\(user)")
        return response.status == 404 ? nil : try jsonObject(response)
    }

    @Test(
        "an Xcode purchase verifies with the app's certificate, is stored as Xcode and grants in that app; forgeries are refused; purge removes it"
    )
    func accepted() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try await RunningService.with(settings: fixture.settings, runsWorker: false) { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            let posted = try await service.post(
                "/v1/transactions", ["app_user_id": "dev-1", "signed_transaction": try fixture.transaction()])
            #expect(posted.status == 200, "\(String(decoding: posted.body, as: UTF8.self))")
            let stored = try #require(try await subscriber("dev-1", service))
            let subscription = try #require((stored["subscriptions"] as? [[String: Any]])?.first, "\(stored)")
            #expect(subscription["environment"] as? String == "Xcode")
            #expect(subscription["status"] as? String == "active")
            let pro = try #require((stored["entitlements"] as? [String: [String: Any]])?["pro"], "\(stored)")
            #expect(pro["active"] as? Bool == true)
            #expect(pro["environment"] as? String == "Xcode")

            // Forgeries: another key behind the same certificate, another certificate, a
            // payload that says Sandbox, a longer chain. Each refused, nothing stored.
            let other = try TestPKI().root
            for forged in [
                try fixture.transaction(id: "1", signer: other),
                try fixture.transaction(id: "2", signer: other, x5c: [other.base64]),
                try fixture.transaction(id: "3", environment: "Sandbox"),
                try fixture.transaction(id: "4", x5c: [fixture.storeKit.base64, other.base64]),
            ] {
                let refused = try await service.post("/v1/transactions", ["app_user_id": "dev-2", "signed_transaction": forged])
                #expect(refused.status == 422 || refused.status == 401, "\(String(decoding: refused.body, as: UTF8.self))")
                #expect(try jsonObject(refused)["error"] as? String == "signature_rejected")
            }
            #expect(try await subscriber("dev-2", service) == nil)
            let rows = try await service.database.query("SELECT count(*) AS n FROM transactions")
            #expect(try rows[0].decode("n", as: Int.self) == 1)

            // purge --environment Xcode: counted, then removed; the user has nothing left.
            let environment = service.environment.merging(["DATABASE_URL": service.databaseURL]) { _, new in new }
            let dry = try await CLI.run(
                ["purge", "--environment", "Xcode", "--dry-run"], databaseURL: service.databaseURL, environment: environment)
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(dry.stdout.contains("would remove") && dry.stdout.contains("1 transactions"), "\(dry.stdout)")
            #expect(try await subscriber("dev-1", service) != nil)
            let purged = try await CLI.run(["purge", "--environment", "Xcode"], databaseURL: service.databaseURL, environment: environment)
            #expect(purged.status == 0, "\(purged.stderr)")
            #expect(purged.stdout.contains("removed") && purged.stdout.contains("1 subscriptions"), "\(purged.stdout)")
            let after = try await subscriber("dev-1", service)
            #expect((after?["subscriptions"] as? [Any])?.isEmpty ?? true, "\(after ?? [:])")
            #expect(((after?["entitlements"] as? [String: [String: Any]])?["pro"]?["active"] as? Bool) != true)
            let sandbox = try await CLI.run(
                ["purge", "--environment", "Sandbox"], databaseURL: service.databaseURL, environment: environment)
            #expect(sandbox.status == 2)
            #expect(sandbox.stderr.contains("only --environment Xcode can be purged"), "\(sandbox.stderr)")
        }
    }

    @Test("an app without xcode_certificate_file refuses Xcode purchases, saying why")
    func refusedWithoutCertificate() async throws {
        let fixture = try Fixture(accepting: false)
        defer { fixture.remove() }
        try await RunningService.with(settings: fixture.settings, runsWorker: false) { service in
            let refused = try await service.post(
                "/v1/transactions", ["app_user_id": "dev-1", "signed_transaction": try fixture.transaction()])
            #expect(try jsonObject(refused)["error"] as? String == "signature_rejected")
            #expect(
                (try jsonObject(refused)["message"] as? String)?.contains("StoreKit Testing in Xcode") == true,
                "\(String(decoding: refused.body, as: UTF8.self))")
            #expect(try await subscriber("dev-1", service) == nil)
        }
    }

    @Test("ALLOW_XCODE_TRANSACTIONS=true keeps xcode_certificate_file, which must hold a P-256 certificate")
    func configuration() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let base = fixture.settings.merging([
            "APPSTORE_BUNDLE_ID": RunningService.bundleID, "APPSTORE_SHARED_SECRET": RunningService.sharedSecret,
        ]) {
            a, _ in a
        }
        #expect(throws: Never.self) { try ServiceConfiguration.load(environment: base) }
        let allowed = try ServiceConfiguration.load(
            environment: base.merging(["SUBSCRIPTIOND_HOST": "0.0.0.0", "ALLOW_XCODE_TRANSACTIONS": "true"]) { _, new in new })
        #expect(allowed.apps.app(bundleID: RunningService.bundleID)?.xcodeCertificate != nil)
        #expect(allowed.apps.entitlementPolicies.policy(for: RunningService.bundleID).counts(.xcode))
        // An app without the setting (a production deployment) never counts an Xcode purchase.
        #expect(!EntitlementPolicy.standard.counts(.xcode))

        let notACertificate = try TemporaryFile.write("not a certificate", name: "xcode.cer")
        defer { try? FileManager.default.removeItem(atPath: notACertificate) }
        let config = try TemporaryFile.write(
            #"{"apps":[{"bundle_id":"a.b","app_apple_id":1,"xcode_certificate_file":"\#(notACertificate)"}]}"#, name: "xcode-bad.json")
        defer { try? FileManager.default.removeItem(atPath: config) }
        #expect { try ServiceConfiguration.load(environment: ["SUBSCRIPTIOND_CONFIG": config]) } throws: {
            "\($0)".contains("xcode_certificate_file of a.b") && "\($0)".contains("no P-256 certificate")
        }
    }
}
