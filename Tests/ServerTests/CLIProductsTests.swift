import Foundation
import Postgres
import TestSupport
import Testing

@Suite("subscriptionctl products and migrate against a real database")
struct CLIProductsTests {
    @Test("a catalog with problems prints one line per problem, exits 1 and changes nothing")
    func badCatalogChangesNothing() async throws {
        try await TestDatabase.withClient { database, testDatabase in
            let good = TestEnvironment.repositoryRoot().appendingPathComponent("Deploy/local/demo-catalog.json").path
            let imported = try await CLI.run(["products", "import", good], databaseURL: testDatabase.url)
            #expect(imported.status == 0)
            #expect(imported.stdout.contains("imported 10 products (0 removed), 3 entitlements"))

            let bad = try TemporaryFile.write(
                """
                {"products":[
                  {"product_id":"p.trial","bundle_id":"com.example.app","type":"auto_renewable","subscription_group_id":"1","period":"P1M",
                   "intro_offer":{"payment_mode":"free_trial","period":"P2D","periods":1,"price":"0.00"}},
                  {"product_id":"p.nogroup","bundle_id":"com.example.app","type":"auto_renewable","period":"P1M"},
                  {"product_id":"p.payg","bundle_id":"com.example.app","type":"auto_renewable","subscription_group_id":"1","period":"P1M",
                   "intro_offer":{"payment_mode":"pay_as_you_go","period":"P1W","periods":3,"price":"0.99"}},
                  {"product_id":"p.type","bundle_id":"com.example.app","type":"subscription"},
                  {"product_id":"p.price","bundle_id":"com.example.app","type":"auto_renewable","subscription_group_id":"1","period":"P1M",
                   "intro_offer":{"payment_mode":"pay_up_front","period":"P1M","periods":1,"price":"-1.00"}},
                  {"product_id":"p.period","bundle_id":"com.example.app","type":"auto_renewable","subscription_group_id":"1","period":"1 month"},
                  {"product_id":"p.period","bundle_id":"com.example.app","type":"consumable"}
                ]}
                """, name: "bad.json")
            let rejected = try await CLI.run(["products", "import", bad], databaseURL: testDatabase.url)
            #expect(rejected.status == 1)
            for id in ["p.trial", "p.nogroup", "p.payg", "p.type", "p.price", "p.period"] {
                #expect(rejected.stderr.contains("\(id): "), "no problem line for \(id)")
            }
            #expect(rejected.stderr.contains("nothing was imported"))
            #expect(rejected.stdout.isEmpty)
            let count = try await database.query("SELECT count(*) AS n FROM products")[0].decode("n", as: Int.self)
            #expect(count == 10)

            let listed = try await CLI.run(["products", "list", "--json"], databaseURL: testDatabase.url)
            #expect(listed.status == 0)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
            #expect((document["products"] as? [[String: Any]])?.count == 10)
            let table = try await CLI.run(["products", "list"], databaseURL: testDatabase.url)
            #expect(table.stdout.hasPrefix("PRODUCT"))
            #expect(table.stdout.contains("free trial P1W"))
        }
    }

    @Test("exit codes: unreadable file 2, unreachable database 3, missing argument 64-style usage")
    func exitCodes() async throws {
        try await TestDatabase.withMigrated { testDatabase in
            let missing = try await CLI.run(["products", "import", "/nonexistent/catalog.json"], databaseURL: testDatabase.url)
            #expect(missing.status == 2)
            #expect(missing.stderr.contains("cannot read"))
            let unreachable = try await CLI.run(["migrate", "--status"], databaseURL: "postgresql://nobody@127.0.0.1:1/none")
            #expect(unreachable.status == 3)
            #expect(unreachable.stderr.hasPrefix("subscriptionctl: database unreachable"))
            #expect(unreachable.stderr.split(separator: "\n").count <= 3)
            let status = try await CLI.run(["migrate", "--status", "--json"], databaseURL: testDatabase.url)
            #expect(status.status == 0)
            #expect(status.stdout.contains("\"0001_initial\""))
            #expect(status.stdout.contains("\"applied\""))
        }
    }
}
