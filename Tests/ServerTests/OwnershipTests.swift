import Foundation
import HTTPClient
import Postgres
import SigningTestSupport
import Subscriptions
import TestSupport
import Testing

/// Who a purchase belongs to, over HTTP: one StoreKit 2 signed transaction proved for two
/// users under each app `link_policy`, and the app account token that names its user
/// whatever the policy (DESIGN.md, "Who owns a purchase").
@Suite("Ownership: link policies, app account tokens and user_unlinked")
struct OwnershipTests {
    static let subscription = "5900000000000001"

    /// A test PKI subscriptiond trusts, and a configuration file giving the app `policy`.
    struct Fixture {
        let pki: TestPKI
        let files: [String]
        let settings: [String: String]

        init(policy: LinkPolicy) throws {
            pki = try TestPKI()
            let root = try TemporaryFile.write(pki.root.pem, name: "ownership-root.pem")
            let config = try TemporaryFile.write(
                #"{"apps":[{"bundle_id":"\#(RunningService.bundleID)","link_policy":"\#(policy.rawValue)"}]}"#,
                name: "ownership-config.json")
            files = [root, config]
            // A webhook URL, so events are written (nobody listens: they stay retrying).
            settings = [
                "APPSTORE_ROOT_CERTIFICATES": root, "SUBSCRIPTIOND_CONFIG": config,
                "WEBHOOK_URL": "http://127.0.0.1:9/hooks", "WEBHOOK_SECRET": "ownership-webhook-secret-0123456789",
            ]
        }

        /// The first Sandbox transaction of subscription `id`, signed now, carrying `token` as its `appAccountToken`.
        func transaction(token: String? = nil, id: String = OwnershipTests.subscription) throws -> String {
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            var payload: [String: Any] = [
                "transactionId": id, "originalTransactionId": id,
                "bundleId": RunningService.bundleID, "productId": "com.example.pro.monthly", "environment": "Sandbox",
                "purchaseDate": now - 60_000, "expiresDate": now + 2_592_000_000, "signedDate": now,
                "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
            ]
            if let token { payload["appAccountToken"] = token }
            return try sign(payload)
        }

        /// A Sandbox SUBSCRIBED notification carrying `transaction`.
        func notification(carrying transaction: String) throws -> [UInt8] {
            let signed = try sign([
                "notificationType": "SUBSCRIBED", "subtype": "INITIAL_BUY", "notificationUUID": UUID().uuidString.lowercased(),
                "version": "2.0", "signedDate": Int64(Date().timeIntervalSince1970 * 1000),
                "data": ["bundleId": RunningService.bundleID, "environment": "Sandbox", "signedTransactionInfo": transaction],
            ])
            return NotificationBodies.bytes(["signedPayload": signed])
        }

        private func sign(_ payload: [String: Any]) throws -> String {
            try TestJWS.sign(payload: String(decoding: try JSONSerialization.data(withJSONObject: payload), as: UTF8.self), by: pki)
        }

        func remove() {
            for file in files { try? FileManager.default.removeItem(atPath: file) }
        }
    }

    /// The original transaction ids `user`'s subscriber JSON lists; nil when it is 404.
    static func subscriptions(of user: String, _ service: RunningService) async throws -> [String]? {
        let response = try await service.get("/v1/subscribers/\(user)")
        if response.status == 404 { return nil }
        #expect(response.status == 200)
        return (try jsonObject(response)["subscriptions"] as? [[String: Any]])?.compactMap { $0["original_transaction_id"] as? String }
    }

    /// The users of each `user_unlinked` event of the subscription, oldest first.
    static func unlinkedEvents(_ service: RunningService) async throws -> [[String]] {
        try await service.database.query(
            """
            SELECT app_user_ids FROM webhook_events WHERE type = 'user_unlinked' AND original_transaction_id = \(subscription) ORDER BY id
            """
        ).map { try $0.decode("app_user_ids", as: [String].self) }
    }

    @Test(
        "one signed transaction posted for A, then B: transfer → only B and A gets user_unlinked; share → both; refuse → 409 for B",
        arguments: LinkPolicy.allCases)
    func secondUser(_ policy: LinkPolicy) async throws {
        let fixture = try Fixture(policy: policy)
        defer { fixture.remove() }
        try await RunningService.with(settings: fixture.settings, runsWorker: false) { service in
            let transaction = try fixture.transaction()
            let first = try await service.post("/v1/transactions", ["app_user_id": "user-a", "signed_transaction": transaction])
            #expect(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
            #expect(try await Self.subscriptions(of: "user-a", service) == [Self.subscription])

            let second = try await service.post("/v1/transactions", ["app_user_id": "user-b", "signed_transaction": transaction])
            switch policy {
            case .transfer:
                #expect(second.status == 200)
                #expect(try await Self.subscriptions(of: "user-a", service) == nil, "A lost its only purchase")
                #expect(try await Self.subscriptions(of: "user-b", service) == [Self.subscription])
                #expect(try await Self.unlinkedEvents(service) == [["user-a"]])
            case .share:
                #expect(second.status == 200)
                #expect(try await Self.subscriptions(of: "user-a", service) == [Self.subscription])
                #expect(try await Self.subscriptions(of: "user-b", service) == [Self.subscription])
                #expect(try await Self.unlinkedEvents(service).isEmpty)
            case .refuse:
                #expect(second.status == 409)
                #expect(try jsonObject(second)["error"] as? String == "owned_by_other_user")
                #expect(try await Self.subscriptions(of: "user-a", service) == [Self.subscription])
                #expect(try await Self.subscriptions(of: "user-b", service) == nil)
            }
            // A proving it again: nothing changes under share and refuse; under transfer it moves back.
            #expect(try await service.post("/v1/transactions", ["app_user_id": "user-a", "signed_transaction": transaction]).status == 200)
            #expect(try await Self.subscriptions(of: "user-a", service) == [Self.subscription])
            #expect(try await Self.subscriptions(of: "user-b", service) == (policy == .share ? [Self.subscription] : nil))
        }
    }

    @Test(
        "a purchase with A's app account token: posted for B it is 409, whatever the policy; A's own post links A",
        arguments: LinkPolicy.allCases)
    func tokenNamesItsUser(_ policy: LinkPolicy) async throws {
        let fixture = try Fixture(policy: policy)
        defer { fixture.remove() }
        try await RunningService.with(settings: fixture.settings, runsWorker: false) { service in
            let token = try #require(
                try jsonObject(try await service.get("/v1/subscribers/user-a/app-account-token"))["app_account_token"] as? String)
            let transaction = try fixture.transaction(token: token)
            let stolen = try await service.post("/v1/transactions", ["app_user_id": "user-b", "signed_transaction": transaction])
            #expect(stolen.status == 409, "\(String(decoding: stolen.body, as: UTF8.self))")
            #expect(try jsonObject(stolen)["error"] as? String == "owned_by_other_user")
            #expect(try await Self.subscriptions(of: "user-b", service) == nil)
            #expect(
                try await service.database.query("SELECT count(*) AS n FROM transactions")[0].decode("n", as: Int.self) == 0,
                "a refused claim stores nothing")
            #expect(try await service.post("/v1/transactions", ["app_user_id": "user-a", "signed_transaction": transaction]).status == 200)
            #expect(try await Self.subscriptions(of: "user-a", service) == [Self.subscription])
        }
    }

    @Test(
        "a purchase whose token is an existing user's id (the app's own UUIDs, any case): another user's post is 409 under every policy, the owner's links",
        arguments: LinkPolicy.allCases)
    func tokenEqualToAnExistingUser(_ policy: LinkPolicy) async throws {
        let fixture = try Fixture(policy: policy)
        defer { fixture.remove() }
        try await RunningService.with(settings: fixture.settings, runsWorker: false) { service in
            let owner = "7D1F0C2E-5B3A-4C1D-9E8F-0A1B2C3D4E5F"
            let other = try fixture.transaction(id: "5900000000000002")
            #expect(try await service.post("/v1/transactions", ["app_user_id": owner, "signed_transaction": other]).status == 200)
            let transaction = try fixture.transaction(token: owner.lowercased())
            let stolen = try await service.post("/v1/transactions", ["app_user_id": "user-b", "signed_transaction": transaction])
            #expect(stolen.status == 409, "\(String(decoding: stolen.body, as: UTF8.self))")
            #expect(try jsonObject(stolen)["error"] as? String == "owned_by_other_user")
            #expect(try await Self.subscriptions(of: "user-b", service) == nil)
            #expect(try await service.post("/v1/transactions", ["app_user_id": owner, "signed_transaction": transaction]).status == 200)
            #expect(try await Self.subscriptions(of: owner, service) == [Self.subscription, "5900000000000002"])
        }
    }

    @Test("the UUIDv5 token round-trips through a v2 notification: it links A with no call, and takes the purchase from whoever held it")
    func tokenThroughANotification() async throws {
        let fixture = try Fixture(policy: .transfer)
        defer { fixture.remove() }
        try await RunningService.with(settings: fixture.settings) { service in
            // B proved the purchase before the token was known (a receipt restored on B's device).
            #expect(
                try await service.post("/v1/transactions", ["app_user_id": "user-b", "signed_transaction": try fixture.transaction()])
                    .status == 200)
            let token = try #require(
                try jsonObject(try await service.get("/v1/subscribers/user-a/app-account-token"))["app_account_token"] as? String)
            let delivered = try await service.postNotification(try fixture.notification(carrying: try fixture.transaction(token: token)))
            #expect(delivered.status == 200)
            try await service.waitUntilSettled()
            #expect(try await service.stateCounts() == ["processed": 1])
            #expect(try await Self.subscriptions(of: "user-a", service) == [Self.subscription])
            #expect(try await Self.subscriptions(of: "user-b", service) == nil)
            #expect(try await Self.unlinkedEvents(service) == [["user-b"]])
        }
    }
}
