import Access
import Foundation
import Postgres
import TestSupport
import Testing

/// `subscriptionctl console-user` against a real database: a user is kept with a bcrypt hash
/// of its password (never the password), listed, removed; bad input changes nothing.
@Suite("subscriptionctl console-user: add, list, remove")
struct ConsoleUsersCLITests {
    @Test("a user is added with a bcrypt hash and an audit row, listed, removed; bad names, roles and passwords change nothing")
    func addListRemove() async throws {
        try await TestDatabase.withClient { database, testDatabase in
            let password = "correct horse battery"
            let added = try await CLI.run(
                ["console-user", "add", "ana", "--role", "support", "--password-stdin"], databaseURL: testDatabase.url,
                environment: ["USER": "ops"], input: password + "\n")
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.contains("console user ana added (support)"))
            let row = try #require(try await database.query("SELECT role, password_hash FROM console_users WHERE name = 'ana'").first)
            let hash: String = try row.decode("password_hash")
            #expect(try row.decode("role", as: String.self) == "support")
            #expect(hash.hasPrefix("$2") && !hash.contains(password))
            #expect(ConsolePassword.verify(password, hash: hash) && !ConsolePassword.verify("wrong horse battery", hash: hash))
            let audit = try await database.query("SELECT actor FROM audit_log WHERE action = 'console_user_added'")
            #expect(try audit.map { try $0.decode("actor", as: String.self) } == ["cli:ops"])

            // Refused before anything is stored: exit 2 for bad input, 1 for a name in use.
            let short = try await CLI.run(
                ["console-user", "add", "bo", "--role", "viewer", "--password-stdin"], databaseURL: testDatabase.url, input: "short\n")
            #expect(short.status == 2 && short.stderr.contains("at least 12 characters"))
            let role = try await CLI.run(
                ["console-user", "add", "bo", "--role", "owner", "--password-stdin"], databaseURL: testDatabase.url, input: password + "\n")
            #expect(role.status == 2 && role.stderr.contains("--role must be viewer, support or admin"))
            let name = try await CLI.run(
                ["console-user", "add", "<script>", "--role", "viewer", "--password-stdin"], databaseURL: testDatabase.url,
                input: password + "\n")
            #expect(name.status == 2 && name.stderr.contains("console user name"))
            let again = try await CLI.run(
                ["console-user", "add", "ana", "--role", "admin", "--password-stdin"], databaseURL: testDatabase.url, input: password + "\n"
            )
            #expect(again.status == 1 && again.stderr.contains("a console user named ana exists already"))
            let noTerminal = try await CLI.run(["console-user", "add", "cy", "--role", "viewer"], databaseURL: testDatabase.url)
            #expect(noTerminal.status == 2 && noTerminal.stderr.contains("--password-stdin"))
            #expect(try await database.query("SELECT name FROM console_users").count == 1)

            // A new password: the old one stops working, the new one works, sessions end.
            try await database.execute(
                "INSERT INTO console_sessions (id_hash, user_name, csrf_token) VALUES (sha256('x'), 'ana', repeat('c', 43))")
            let newPassword = "another horse battery"
            let changed = try await CLI.run(
                ["console-user", "password", "ana", "--password-stdin"], databaseURL: testDatabase.url, input: newPassword + "\n")
            #expect(changed.status == 0, "\(changed.stderr)")
            let newHash = try #require(try await database.query("SELECT password_hash FROM console_users WHERE name = 'ana'").first)
                .decode("password_hash", as: String.self)
            #expect(ConsolePassword.verify(newPassword, hash: newHash) && !ConsolePassword.verify(password, hash: newHash))
            #expect(try await database.query("SELECT 1 FROM console_sessions").isEmpty)
            let weak = try await CLI.run(
                ["console-user", "password", "ana", "--password-stdin"], databaseURL: testDatabase.url, input: "short\n")
            #expect(weak.status == 2 && weak.stderr.contains("at least 12 characters"))
            let nobody = try await CLI.run(
                ["console-user", "password", "bo", "--password-stdin"], databaseURL: testDatabase.url, input: newPassword + "\n")
            #expect(nobody.status == 1 && nobody.stderr.contains("no console user is named bo"))

            let listed = try await CLI.run(["console-user", "list"], databaseURL: testDatabase.url)
            #expect(listed.stdout.contains("ana") && listed.stdout.contains("support") && listed.stdout.contains("active"))
            #expect(!listed.stdout.contains("$2"), "the hash is never shown")
            let removed = try await CLI.run(["console-user", "remove", "ana"], databaseURL: testDatabase.url)
            #expect(removed.status == 0 && removed.stdout.contains("console user ana removed"))
            let twice = try await CLI.run(["console-user", "remove", "ana"], databaseURL: testDatabase.url)
            #expect(twice.status == 1 && twice.stderr.contains("no console user is named ana"))
            let json = try await CLI.run(["console-user", "list", "--json"], databaseURL: testDatabase.url)
            let users = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            #expect(users.count == 1 && users[0]["removed_at"] is String && users[0]["password_hash"] == nil)
        }
    }

    @Test("roles map onto the API's scopes: viewer reads, support also writes, admin does everything")
    func rolesMapOntoScopes() {
        #expect(ConsoleRole.viewer.principal(name: "v").may(.reports) && !ConsoleRole.viewer.principal(name: "v").may(.write))
        #expect(ConsoleRole.support.principal(name: "s").may(.write) && !ConsoleRole.support.principal(name: "s").may(.admin))
        #expect(ConsoleRole.admin.principal(name: "a").may(.admin) && ConsoleRole.admin.principal(name: "a").actor == "console:a")
    }
}
