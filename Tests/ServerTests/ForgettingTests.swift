import Foundation
import HTTPClient
import Postgres
import TestSupport
import Testing

/// Forgetting an app user and removing one link: over HTTP and with subscriptionctl.
@Suite("Forgetting users: DELETE /v1/subscribers/{id}, subscriber delete and unlink")
struct ForgettingTests {
    static let subscription = "5700000000000001"

    /// Runs `body` against a service where two users are linked to one subscription by the
    /// same receipt (the app's link policy is `share`), the first also with a grant and an app
    /// account token.
    private func withTwoUsersOneSubscription(_ body: (RunningService) async throws -> Void) async throws {
        let verify = ScriptedVerifyServer()
        try await verify.start()
        defer { Task { await verify.stop() } }
        verify.answerOneActivePeriodPerReceipt()
        let config = try TemporaryFile.write(
            #"{"apps":[{"bundle_id":"\#(RunningService.bundleID)","link_policy":"share"}]}"#, name: "share.json")
        defer { try? FileManager.default.removeItem(atPath: config) }
        // A webhook URL, so events naming the users are written (nobody listens: they stay retrying).
        let settings = [
            "SUBSCRIPTIOND_CONFIG": config, "WEBHOOK_URL": "http://127.0.0.1:9/hooks",
            "WEBHOOK_SECRET": "forgetting-webhook-secret-0123456789",
        ]
        try await RunningService.with(verifyServer: verify, settings: settings, runsWorker: false) { service in
            try await twoUsersOneSubscription(service)
            try await body(service)
        }
    }

    private func twoUsersOneSubscription(_ service: RunningService) async throws {
        try await service.database.execute(
            "INSERT INTO products (product_id, bundle_id, type, subscription_group_id, period) VALUES ('com.example.pro.monthly', 'com.example.app', 'auto_renewable', '20500000', 'P1M')"
        )
        try await service.database.execute("INSERT INTO entitlements (entitlement_id) VALUES ('pro')")
        try await service.database.execute(
            "INSERT INTO entitlement_products (entitlement_id, product_id) VALUES ('pro', 'com.example.pro.monthly')")
        let receipt = Data(Self.subscription.utf8).base64EncodedString()
        for user in ["user-a", "user-b"] {
            #expect(try await service.post("/v1/receipts", ["app_user_id": user, "receipt_data": receipt]).status == 200)
        }
        #expect(try await service.post("/v1/subscribers/user-a/grants", ["entitlement": "pro", "reason": "comp"]).status == 201)
        let token = try jsonObject(try await service.get("/v1/subscribers/user-a/app-account-token"))["app_account_token"] as? String
        #expect(token?.count == 36, "a UUID")
        #expect(try jsonObject(try await service.get("/v1/subscribers/user-a/app-account-token"))["app_account_token"] as? String == token)
    }

    @Test(
        "after DELETE /v1/subscribers/A, A is 404, the subscription still exists, B's links are untouched, and no stored answer for A is served"
    )
    func deleteOverHTTP() async throws {
        try await withTwoUsersOneSubscription { service in
            // Stored answers for A exist before (read twice: computed, then stored).
            for _ in 0..<2 { #expect(try await service.get("/v1/subscribers/user-a/entitlements").status == 200) }

            let before = try await service.database.query("SELECT count(*) AS n FROM webhook_events WHERE 'user-a' = ANY(app_user_ids)")
            #expect(try before[0].decode("n", as: Int.self) > 0, "events name the user before")
            let deleted = try await service.delete("/v1/subscribers/user-a")
            #expect(deleted.status == 200)
            let forgotten = try #require(try jsonObject(deleted)["forgotten"] as? [String: Int])
            #expect(
                forgotten == ["links": 1, "grants": 1, "original_application_versions": 0], "the scripted answer names no original version")

            #expect(try await service.get("/v1/subscribers/user-a").status == 404)
            #expect(try await service.get("/v1/subscribers/user-a/entitlements").status == 404)
            #expect(try await service.get("/v1/subscriptions/\(Self.subscription)").status == 200)
            let b = try jsonObject(try await service.get("/v1/subscribers/user-b"))
            #expect((b["subscriptions"] as? [[String: Any]])?.first?["original_transaction_id"] as? String == Self.subscription)
            let answers = try await service.database.query("SELECT count(*) AS n FROM subscriber_answers WHERE app_user_id = 'user-a'")
            #expect(try answers[0].decode("n", as: Int.self) == 0)
            let named = try await service.database.query(
                "SELECT count(*) AS n FROM audit_log WHERE app_user_id = 'user-a' OR detail::text LIKE '%user-a%'")
            #expect(try named[0].decode("n", as: Int.self) == 0, "no audit row says who the user was")
            let events = try await service.database.query("SELECT count(*) AS n FROM webhook_events WHERE 'user-a' = ANY(app_user_ids)")
            #expect(try events[0].decode("n", as: Int.self) == 0, "no webhook event, sent or not, names the user")
            let tokens = try await service.database.query("SELECT count(*) AS n FROM app_account_tokens WHERE app_user_id = 'user-a'")
            #expect(try tokens[0].decode("n", as: Int.self) == 0, "the token mapping is gone")
            let actions = try await service.database.query("SELECT action FROM audit_log ORDER BY id").map {
                try $0.decode("action", as: String.self)
            }
            #expect(actions == ["grant_added", "subscriber_deleted"])

            #expect(try await service.delete("/v1/subscribers/user-a").status == 404)
        }
    }

    @Test("subscriptionctl subscriber unlink removes one link and subscriber delete forgets; unknown ones exit 1")
    func cli() async throws {
        try await withTwoUsersOneSubscription { service in
            let url = service.databaseURL
            let unlinked = try await CLI.run(
                ["subscriber", "unlink", "user-b", Self.subscription], databaseURL: url, environment: ["USER": "ops"])
            #expect(unlinked.status == 0 && unlinked.stdout.contains("unlinked user-b from \(Self.subscription)"))
            let events = try await service.database.query("SELECT app_user_ids FROM webhook_events WHERE type = 'user_unlinked'")
            #expect(try events.map { try $0.decode("app_user_ids", as: [String].self) } == [["user-b"]], "the app's backend hears of it")
            #expect(try await service.get("/v1/subscribers/user-b").status == 404, "b's only link is gone")
            #expect(try await CLI.run(["subscriber", "unlink", "user-b", Self.subscription], databaseURL: url).status == 1)

            let deleted = try await CLI.run(["subscriber", "delete", "user-a", "--json"], databaseURL: url, environment: ["USER": "ops"])
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(try await service.get("/v1/subscribers/user-a").status == 404)
            #expect(try await CLI.run(["subscriber", "delete", "user-a"], databaseURL: url).status == 1)
            let actors = try await service.database.query("SELECT actor || ' ' || action AS row FROM audit_log ORDER BY id").map {
                try $0.decode("row", as: String.self)
            }
            #expect(actors == ["key:admin-token grant_added", "cli:ops user_unlinked", "cli:ops subscriber_deleted"])
        }
    }
}
