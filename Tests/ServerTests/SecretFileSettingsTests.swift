import Foundation
import Settings
import Testing

/// Every secret setting read from the file its `*_FILE` variable names, and each mistake's one line.
@Suite("Secret settings from files (*_FILE) and unknown settings named at startup")
struct SecretFileSettingsTests {
    static let base = ["APPSTORE_BUNDLE_ID": "com.example.app"]
    /// A value each secret setting accepts, long enough for the tokens and webhook secrets.
    static let value = "secret-value-0123456789abcdef-0123456789"

    static func file(_ text: String, mode: Int = 0o600) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("secret-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("secret")
        try Data(text.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
        return file.path
    }

    /// Loads `settings` over `base`, with a webhook URL when they configure its secret.
    static func load(_ settings: [String: String]) throws -> ServiceConfiguration {
        var environment = base.merging(settings) { _, new in new }
        if settings.keys.contains(where: {
            ["WEBHOOK_SECRET", "WEBHOOK_SECRETS", "WEBHOOK_SECRET_FILE", "WEBHOOK_SECRETS_FILE"].contains($0)
        }) {
            environment["WEBHOOK_URL"] = "https://hooks.example.com/x"
        }
        return try ServiceConfiguration.load(environment: environment)
    }

    /// The value the configuration holds for a secret setting.
    static func read(_ name: String, from configuration: ServiceConfiguration) -> String? {
        let app = configuration.apps.app(bundleID: "com.example.app")
        switch name {
        case "DATABASE_URL": return configuration.databaseURL
        case "DATABASE_READ_URL": return configuration.databaseReadURL
        case "APPSTORE_SHARED_SECRET": return app?.sharedSecret?.revealed
        case "ADMIN_TOKEN": return configuration.adminToken?.revealed
        case "METRICS_TOKEN": return configuration.metricsToken?.revealed
        case "WEBHOOK_SECRET", "WEBHOOK_SECRETS": return app?.webhook?.secrets.map(\.text.revealed).joined(separator: ",")
        default: return nil
        }
    }

    @Test("each secret's file is read, one trailing newline dropped", arguments: SecretSettings.names)
    func readsTheFile(name: String) throws {
        for ending in ["", "\n", "\r\n"] {
            let configuration = try Self.load(["\(name)_FILE": try Self.file(Self.value + ending)])
            #expect(Self.read(name, from: configuration) == Self.value, "\(name)_FILE ending \(ending.debugDescription)")
        }
    }

    @Test("WEBHOOK_SECRETS_FILE may hold one secret a line, newest first")
    func secretsFileLines() throws {
        let other = "older-secret-0123456789abcdef-0123456789"
        let configuration = try Self.load(["WEBHOOK_SECRETS_FILE": try Self.file("\(Self.value)\n\(other)\n")])
        #expect(Self.read("WEBHOOK_SECRETS", from: configuration) == "\(Self.value),\(other)")
    }

    @Test(
        "both NAME and NAME_FILE set, a file other users may read, a missing or empty file: one line naming the variable, never the secret",
        arguments: SecretSettings.names)
    func mistakes(name: String) throws {
        let fileVariable = "\(name)_FILE"
        let good = try Self.file(Self.value)
        let both = try #require(throws: ConfigurationError.self) { try Self.load([name: Self.value, fileVariable: good]) }
        #expect(both.setting == name && both.problem.contains(fileVariable), "\(both)")

        let open = try Self.file(Self.value, mode: 0o644)
        let refused = try #require(throws: ConfigurationError.self) { try Self.load([fileVariable: open]) }
        #expect(refused.setting == fileVariable && refused.problem.contains(open) && refused.problem.contains("chmod"), "\(refused)")

        let missing = "/nonexistent/\(UUID().uuidString)"
        let absent = try #require(throws: ConfigurationError.self) { try Self.load([fileVariable: missing]) }
        #expect(absent.setting == fileVariable && absent.problem.contains(missing), "\(absent)")

        let empty = try #require(throws: ConfigurationError.self) { try Self.load([fileVariable: try Self.file("\n")]) }
        #expect(empty.setting == fileVariable && empty.problem.contains("empty"), "\(empty)")

        for error in [both, refused, absent, empty] {
            #expect(!"\(error)".contains(Self.value), "\(error) shows the secret")
        }
    }

    @Test("a group-readable file is accepted (root:subscriptiond 0640, as the .p8); an empty *_FILE counts as unset")
    func groupReadable() throws {
        let configuration = try Self.load(["ADMIN_TOKEN_FILE": try Self.file(Self.value, mode: 0o640), "METRICS_TOKEN_FILE": ""])
        #expect(configuration.adminToken?.revealed == Self.value)
        #expect(configuration.metricsToken == nil)
    }

    @Test("an unknown SUBSCRIPTIOND_/APPSTORE_/WEBHOOK_/CONSOLE variable is named with the nearest setting; values never")
    func unknownSettings() throws {
        let configuration = try Self.load([
            "WEBHOOK_SECRETT": "do-not-print-me-0123456789", "SUBSCRIPTIOND_PROT": "8080", "APPSTORE_KEYID": "x",
            "CONSOLE_SESION_IDLE_MINUTES": "5", "ADMIN_TOKEN_FILES": "/x", "PATH": "/usr/bin", "HOME": "/root",
            "SUBSCRIPTIOND_COMMIT": "abc",
            "ADMIN_TOKEN_FILE": try Self.file(Self.value),
        ])
        #expect(
            configuration.unknownSettingWarnings == [
                "unknown setting APPSTORE_KEYID (did you mean APPSTORE_KEY_ID?)",
                "unknown setting CONSOLE_SESION_IDLE_MINUTES (did you mean CONSOLE_SESSION_IDLE_MINUTES?)",
                "unknown setting SUBSCRIPTIOND_PROT (did you mean SUBSCRIPTIOND_PORT?)",
                "unknown setting WEBHOOK_SECRETT (did you mean WEBHOOK_SECRET?)",
            ])
        #expect(!configuration.unknownSettingWarnings.joined().contains("do-not-print-me"))
        #expect(try Self.load([:]).unknownSettingWarnings.isEmpty)
        #expect(UnknownSettings.known.contains("WEBHOOK_SECRETS_FILE"))
    }
}
