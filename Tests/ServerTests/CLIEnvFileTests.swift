import Foundation
import Settings
import TestSupport
import Testing

@Suite("subscriptionctl --env-file: the service's environment file")
struct CLIEnvFileTests {
    @Test("KEY=VALUE lines, comments, export and quotes; a line that is not KEY=VALUE is named")
    func parse() throws {
        let variables = try EnvironmentFile.parse(
            """
            # /etc/subscriptiond/subscriptiond.env
            DATABASE_URL=postgresql://db/subscriptiond

            export LOG_LEVEL = debug
            APPSTORE_SHARED_SECRET="with spaces and = signs"
            WEBHOOK_URL='https://hooks.example.com/x'
            EMPTY=
            """)
        #expect(
            variables == [
                "DATABASE_URL": "postgresql://db/subscriptiond", "LOG_LEVEL": "debug",
                "APPSTORE_SHARED_SECRET": "with spaces and = signs", "WEBHOOK_URL": "https://hooks.example.com/x", "EMPTY": "",
            ])
        #expect { try EnvironmentFile.parse("A=1\nnot a setting\n") } throws: { "\($0)".contains("line 2 is not KEY=VALUE") }
        #expect { try EnvironmentFile.parse("1A=1") } throws: { "\($0)".contains("line 1") }
    }

    @Test("a command reads DATABASE_URL from the file when the environment has none; a broken file stops it with one line")
    func readsTheServiceFile() async throws {
        try await TestDatabase.withClient { _, database in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("subscriptiond-\(UUID().uuidString).env")
            defer { try? FileManager.default.removeItem(at: file) }
            try Data("# the service's file\nDATABASE_URL=\"\(database.url)\"\n".utf8).write(to: file)
            let stats = try await CLI.run(["stats", "--json", "--env-file", file.path], databaseURL: "")
            #expect(stats.status == 0, "\(stats.stderr)")
            #expect(stats.stdout.contains("\"notifications\""), "\(stats.stdout)")
            // Without the file the same command has no database.
            #expect(try await CLI.run(["stats", "--json"], databaseURL: "").status != 0)

            try Data("DATABASE_URL=\(database.url)\noops\n".utf8).write(to: file)
            let broken = try await CLI.run(["stats", "--env-file", file.path], databaseURL: "")
            #expect(broken.status != 0)
            #expect(broken.stderr.contains("line 2 is not KEY=VALUE"), "\(broken.stderr)")
        }
    }

    @Test("DATABASE_URL_FILE, from the environment file or the environment, is read as subscriptiond reads it; a mistake is one line")
    func readsSecretFiles() async throws {
        try await TestDatabase.withClient { _, database in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-secrets-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let secret = directory.appendingPathComponent("database_url")
            try Data("\(database.url)\n".utf8).write(to: secret)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret.path)
            let file = directory.appendingPathComponent("subscriptiond.env")
            try Data("DATABASE_URL_FILE=\(secret.path)\n".utf8).write(to: file)
            let stats = try await CLI.run(["stats", "--json", "--env-file", file.path], databaseURL: "")
            #expect(stats.status == 0, "\(stats.stderr)")
            let direct = try await CLI.run(["stats", "--json"], databaseURL: "", environment: ["DATABASE_URL_FILE": secret.path])
            #expect(direct.status == 0, "\(direct.stderr)")

            let both = try await CLI.run(["stats"], databaseURL: database.url, environment: ["DATABASE_URL_FILE": secret.path])
            #expect(both.status != 0 && both.stderr.contains("DATABASE_URL and DATABASE_URL_FILE are both set"), "\(both.stderr)")
            try FileManager.default.setAttributes([.posixPermissions: 0o604], ofItemAtPath: secret.path)
            let open = try await CLI.run(["stats"], databaseURL: "", environment: ["DATABASE_URL_FILE": secret.path])
            #expect(open.status != 0 && open.stderr.contains("DATABASE_URL_FILE names \(secret.path)"), "\(open.stderr)")
            #expect(!open.stderr.contains(database.url))
        }
    }
}
