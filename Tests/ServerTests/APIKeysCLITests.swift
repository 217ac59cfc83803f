import Foundation
import HTTPClient
import Logging
import Postgres
import TestSupport
import Testing

/// `subscriptionctl keys` as an operator runs it, against two real `subscriptiond` processes
/// on one database: a key made by the CLI works on both, a revoked or expired one is refused
/// by both within seconds, and bad input changes nothing.
@Suite("subscriptionctl keys: made, listed, revoked and expired across two processes")
struct APIKeysCLITests {
    @Test("a revoked and an expired key are 401 on both processes; requests are counted by key name, never by key")
    func revokedAcrossProcesses() async throws {
        try await TestDatabase.withClient { database, testDatabase in
            let processes = (0..<2).map { _ in
                ServiceProcess(databaseURL: testDatabase.url, verify: nil, ["ADMIN_TOKEN": RunningService.adminToken])
            }
            defer { processes.forEach { $0.kill() } }
            var ports: [Int] = []
            for process in processes { ports.append(try await process.start()) }
            let http = CurlHTTPClient(logger: Logger(label: "test.keys"))
            defer { Task { try? await http.shutdown() } }
            func status(_ port: Int, _ key: String) async throws -> Int {
                try await http.execute(
                    HTTPClient.HTTPRequest(
                        method: .get, url: "http://127.0.0.1:\(port)/v1/subscribers/nobody",
                        headers: [HTTPHeader(name: "Authorization", value: "Bearer \(key)")], timeout: .seconds(5))
                ).status
            }
            func waitFor(_ expected: Int, _ key: String) async throws {
                let deadline = ContinuousClock.now + .seconds(10)
                for port in ports {
                    while try await status(port, key) != expected {
                        guard ContinuousClock.now < deadline else {
                            Issue.record("port \(port) does not answer \(expected) within 10 s")
                            return
                        }
                        try await Task.sleep(for: .milliseconds(100))
                    }
                }
            }

            let created = try await CLI.run(["keys", "create", "paywall", "--scope", "read"], databaseURL: testDatabase.url)
            #expect(created.status == 0, "\(created.stderr)")
            let key = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(key.hasPrefix("sk_") && !key.contains("\n"))
            #expect(created.stderr.contains("not shown again"))
            try await waitFor(404, key)
            // Only the digest is stored.
            let stored = try await database.query("SELECT key_digest FROM api_keys WHERE name = 'paywall'")
            #expect(try stored[0].decode("key_digest", as: String.self).count == 64)
            let secretPart = String(key.dropFirst(3))
            #expect(try await database.query("SELECT 1 FROM api_keys a WHERE strpos(row_to_json(a)::text, \(secretPart)) > 0").isEmpty)

            let revoked = try await CLI.run(["keys", "revoke", "paywall"], databaseURL: testDatabase.url)
            #expect(revoked.status == 0, "\(revoked.stderr)")
            let revokedAt = ContinuousClock.now
            try await waitFor(401, key)
            #expect(ContinuousClock.now - revokedAt < .seconds(5), "revocation took \(ContinuousClock.now - revokedAt)")

            let expired = try await CLI.run(
                ["keys", "create", "old-export", "--scope", "reports", "--expires", "2020-01-01"], databaseURL: testDatabase.url)
            #expect(expired.status == 0, "\(expired.stderr)")
            let expiredKey = expired.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            try await Task.sleep(for: .seconds(2))
            for port in ports { #expect(try await status(port, expiredKey) == 401) }

            let listed = try await CLI.run(["keys", "list", "--json"], databaseURL: testDatabase.url)
            let keys = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            #expect(keys.map { "\($0["name"] ?? "") \($0["state"] ?? "")" } == ["paywall revoked", "old-export expired"])
            #expect(keys.allSatisfy { $0["key"] == nil })
            #expect(!listed.stdout.contains(key))

            let metrics = String(
                decoding: try await http.execute(.get(url: "http://127.0.0.1:\(ports[0])/metrics", timeout: .seconds(5))).body,
                as: UTF8.self)
            #expect(metrics.contains(#"subscriptiond_api_requests_total{key="paywall",outcome="client_error"}"#))
            #expect(!metrics.contains(key) && !metrics.contains(expiredKey))
            for process in processes { #expect(!process.logText.contains(key) && !process.logText.contains(expiredKey)) }
        }
    }

    @Test(
        "an unknown scope, a malformed date, an app not configured or a reserved name is exit 2, a name in use or an unknown revoke exit 1; nothing is stored"
    )
    func badInput() async throws {
        try await TestDatabase.withClient { database, testDatabase in
            let first = try await CLI.run(["keys", "create", "backend", "--scope", "write"], databaseURL: testDatabase.url)
            #expect(first.status == 0, "\(first.stderr)")
            let environment = ["APPSTORE_BUNDLE_ID": RunningService.bundleID]
            let cases: [([String], Int32, String)] = [
                (["keys", "create", "a", "--scope", "read,root"], 2, "unknown scope \"root\""),
                (["keys", "create", "b", "--scope", "read", "--expires", "next tuesday"], 2, "--expires"),
                (["keys", "create", "c", "--scope", "read", "--app", "com.example.nope"], 2, "com.example.nope is not a configured app"),
                (["keys", "create", "admin-token", "--scope", "read"], 2, "ADMIN_TOKEN"),
                (["keys", "create", "bad name!", "--scope", "read"], 2, "key name"),
                (["keys", "create", "backend", "--scope", "read"], 1, "exists already"),
                (["keys", "revoke", "nobody"], 1, "no key is named nobody"),
            ]
            for (arguments, exit, message) in cases {
                let result = try await CLI.run(arguments, databaseURL: testDatabase.url, environment: environment)
                #expect(result.status == exit, "\(arguments): \(result.status) \(result.stderr)")
                #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
                #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
            }
            #expect(try await database.query("SELECT name FROM api_keys").count == 1)
            let limited = try await CLI.run(
                ["keys", "create", "app-reader", "--scope", "read", "--app", RunningService.bundleID], databaseURL: testDatabase.url,
                environment: environment)
            #expect(limited.status == 0, "\(limited.stderr)")
        }
    }
}
