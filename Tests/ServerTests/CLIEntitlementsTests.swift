import Foundation
import Postgres
import TestSupport
import Testing

@Suite("subscriptionctl: entitlements in the catalog, grants, subscriber show")
struct CLIEntitlementsTests {
    @Test(
        "a catalog with entitlements imports and lists; grants are added, listed, shown and revoked with audit rows; mistakes exit 1 or 2")
    func grantsByHand() async throws {
        try await TestDatabase.withClient { database, testDatabase in
            let catalog = try TemporaryFile.write(
                """
                {"entitlements": [{"id": "pro", "product_ids": ["com.example.pro.monthly", "com.example.pro.lifetime"]}],
                 "products": [
                  {"product_id": "com.example.pro.monthly", "bundle_id": "com.example.app", "type": "auto_renewable",
                   "subscription_group_id": "20500000", "period": "P1M"},
                  {"product_id": "com.example.pro.lifetime", "bundle_id": "com.example.app", "type": "non_consumable"},
                  {"product_id": "com.example.pro.trial", "bundle_id": "com.example.app", "type": "non_consumable",
                   "trial_of": "pro", "trial_period": "P14D"}]}
                """, name: "catalog.json")
            let url = testDatabase.url
            let imported = try await CLI.run(["products", "import", catalog], databaseURL: url)
            #expect(imported.status == 0)
            #expect(imported.stdout.contains("imported 3 products (0 removed), 1 entitlement"))
            let listed = try await CLI.run(["products", "list"], databaseURL: url)
            #expect(listed.stdout.contains("ENTITLEMENTS") && listed.stdout.contains("pro (trial P14D)"))
            let listedJSON = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(try await CLI.run(["products", "list", "--json"], databaseURL: url).stdout.utf8)) as? [String: Any])
            #expect((listedJSON["entitlements"] as? [[String: Any]])?.first?["id"] as? String == "pro")

            let added = try await CLI.run(
                ["grants", "add", "user-9", "pro", "--until", "2099-01-01", "--reason", "ticket 77", "--json"], databaseURL: url,
                environment: ["USER": "support-ann"])
            #expect(added.status == 0)
            let grant = try #require(try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: Any])
            let id = try #require(grant["grant_id"] as? Int)
            #expect(grant["expires_at"] as? String == "2099-01-01T00:00:00Z")

            let shown = try await CLI.run(["subscriber", "show", "user-9"], databaseURL: url)
            #expect(shown.status == 0)
            #expect(shown.stdout.contains("ENTITLEMENT") && shown.stdout.contains("grant"))
            let shownJSON = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(try await CLI.run(["subscriber", "show", "user-9", "--json"], databaseURL: url).stdout.utf8))
                    as? [String: Any])
            #expect(((shownJSON["entitlements"] as? [String: Any])?["pro"] as? [String: Any])?["source"] as? String == "grant")

            let unknown = try await CLI.run(["grants", "add", "user-9", "ghost", "--reason", "x"], databaseURL: url)
            #expect(unknown.status == 1)
            #expect(unknown.stderr.contains("no entitlement \"ghost\""))
            #expect(
                try await CLI.run(["grants", "add", "user-9", "pro", "--until", "someday", "--reason", "x"], databaseURL: url).status == 2)
            #expect(try await CLI.run(["grants", "add", "user-9", "pro"], databaseURL: url).status == 2, "--reason is required")

            let list = try await CLI.run(["grants", "list", "user-9"], databaseURL: url)
            #expect(list.stdout.contains("ticket 77") && list.stdout.contains("active"))
            #expect(
                try await CLI.run(
                    ["grants", "revoke", String(id), "--reason", "closed"], databaseURL: url, environment: ["USER": "support-ann"]
                ).status == 0)
            #expect(try await CLI.run(["grants", "revoke", "999999"], databaseURL: url).status == 1)
            #expect(try await CLI.run(["grants", "list", "user-9"], databaseURL: url).stdout.contains("revoked"))

            let actors = try await database.query("SELECT actor, action FROM audit_log ORDER BY id").map {
                "\(try $0.decode("actor", as: String.self)) \(try $0.decode("action", as: String.self))"
            }
            #expect(actors == ["cli:support-ann grant_added", "cli:support-ann grant_revoked"])

            let broken = try TemporaryFile.write(
                "{\"apps\": [{\"bundle_id\": \"com.example.app\", \"sandbox_entitlement\": \"sometimes\"}]}", name: "apps.json")
            let refused = try await CLI.run(
                ["subscriber", "show", "user-9"], databaseURL: url, environment: ["SUBSCRIPTIOND_CONFIG": broken])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("sandbox_entitlement must be \"grant\" or \"ignore\""))
        }
    }
}
