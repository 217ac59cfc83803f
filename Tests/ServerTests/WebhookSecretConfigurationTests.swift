import Foundation
import Settings
import Testing

/// The webhook secrets in every place they are configured, and each mistake's one line.
@Suite("Webhook secrets: rotation lists, whsec_ secrets, secret files and their mistakes")
struct WebhookSecretConfigurationTests {
    static let base = [
        "APPSTORE_BUNDLE_ID": "com.example.app", "APPSTORE_SHARED_SECRET": "s", "WEBHOOK_URL": "https://hooks.example.com/x",
    ]
    static let new = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
    static let old = "webhook-secret-0123456789abcdef-0123456789"

    static func load(_ settings: [String: String]) throws -> ServiceConfiguration {
        try ServiceConfiguration.load(environment: base.merging(settings) { _, new in new })
    }

    static func secrets(_ configuration: ServiceConfiguration, _ bundleID: String = "com.example.app") -> [String]? {
        configuration.apps.app(bundleID: bundleID)?.webhook?.secrets.map(\.text.revealed)
    }

    /// Writes `{"apps":[APP]}` (APP without braces) to a fresh file and loads it.
    static func loadFile(_ app: String, environment: [String: String] = [:]) throws -> ServiceConfiguration {
        let file = try Self.temporaryFile(
            #"{"apps":[{"bundle_id":"com.example.one","shared_secret":"a","webhook_url":"https://one.example.com/h","#
                + app + "}]}")
        return try ServiceConfiguration.load(environment: environment.merging(["SUBSCRIPTIOND_CONFIG": file.path]) { _, new in new })
    }

    static func temporaryFile(_ text: String, mode: Int = 0o600) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hook-secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("file")
        try Data(text.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
        return file
    }

    @Test("WEBHOOK_SECRETS=new,old signs with both, newest first; WEBHOOK_SECRET alone with one; a whsec_ secret is accepted")
    func environmentLists() throws {
        #expect(Self.secrets(try Self.load(["WEBHOOK_SECRETS": "\(Self.new), \(Self.old)"])) == [Self.new, Self.old])
        #expect(Self.secrets(try Self.load(["WEBHOOK_SECRETS": Self.old])) == [Self.old])
        #expect(Self.secrets(try Self.load(["WEBHOOK_SECRET": Self.new])) == [Self.new])
        let both = try #require(throws: ConfigurationError.self) {
            try Self.load(["WEBHOOK_SECRET": Self.old, "WEBHOOK_SECRETS": "\(Self.new),\(Self.old)"])
        }
        #expect(both.setting == "WEBHOOK_SECRET" && both.problem.contains("WEBHOOK_SECRETS"), "\(both)")
        let alone = try #require(throws: ConfigurationError.self) {
            try ServiceConfiguration.load(environment: ["APPSTORE_BUNDLE_ID": "a.b", "WEBHOOK_SECRETS": Self.old])
        }
        #expect(alone.setting == "WEBHOOK_URL" && alone.problem.contains("WEBHOOK_SECRETS"))
    }

    @Test(
        "an empty entry, a short secret, whsec_ without valid base64 or with a short key stop startup with one line that shows no secret",
        arguments: [
            ("\(new),", "secret 2 of 2) is empty"),
            (",\(new)", "secret 1 of 2) is empty"),
            ("\(new),short", "secret 2 of 2) is too short"),
            ("whsec_not*base64!", "not valid base64"),
            ("whsec_", "not valid base64"),
            // base64url's alphabet: some decoders would skip the two characters and key with another key.
            ("whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh-_", "not valid base64"),
            ("whsec_AAECAwQFBgcICQoLDA0ODxAREhMU", "holds a key of 21 bytes"),
        ])
    func badSecrets(list: String, problem: String) throws {
        let error = try #require(throws: ConfigurationError.self) { try Self.load(["WEBHOOK_SECRETS": list]) }
        #expect(error.setting.hasPrefix("WEBHOOK_SECRETS"), "\(error)")
        #expect(error.description.contains(problem), "\(error)")
        #expect(!error.description.contains("AAECAwQF") && !error.description.contains("not*base64"), "\(error)")
        #expect(!error.description.contains("\n"))
    }

    @Test("per app: webhook_secrets [new, old]; with webhook_secret it is an error naming both; an empty list stops startup")
    func fileLists() throws {
        let rotated = try Self.loadFile(#""webhook_secrets":["\#(Self.new)","\#(Self.old)"]"#)
        #expect(Self.secrets(rotated, "com.example.one") == [Self.new, Self.old])
        let both = try #require(throws: ConfigurationError.self) {
            try Self.loadFile(#""webhook_secret":"\#(Self.old)","webhook_secrets":["\#(Self.new)"]"#)
        }
        #expect(both.problem.contains("webhook_secret and webhook_secrets"), "\(both)")
        #expect(!both.description.contains(Self.old))
        let empty = try #require(throws: ConfigurationError.self) { try Self.loadFile(#""webhook_secrets":[]"#) }
        #expect(empty.setting.contains("webhook_secrets") && empty.problem.contains("empty list"), "\(empty)")
        let blank = try #require(throws: ConfigurationError.self) { try Self.loadFile(#""webhook_secret":"""#) }
        #expect(blank.setting.contains("webhook_secret") && blank.problem.contains("is empty"), "\(blank)")
        let invalid = try #require(throws: ConfigurationError.self) {
            try Self.loadFile(#""webhook_secrets":["\#(Self.old)","whsec_%%%"]"#)
        }
        #expect(invalid.setting.contains("webhook_secrets") && invalid.problem.contains("not valid base64"), "\(invalid)")
        let misspelled = try #require(throws: ConfigurationError.self) { try Self.loadFile(#""webhook_secret_files":"/x""#) }
        #expect(misspelled.problem.contains(#"did you mean "webhook_secret_file"?"#), "\(misspelled)")
    }

    @Test("webhook_secret_file: one secret a line, newest first; a file others may read, an empty one, or a second way stops startup")
    func secretFiles() throws {
        let good = try Self.temporaryFile("\(Self.new)\n\n  \(Self.old)  \n")
        #expect(Self.secrets(try Self.loadFile(#""webhook_secret_file":"\#(good.path)""#), "com.example.one") == [Self.new, Self.old])
        let open = try Self.temporaryFile(Self.old, mode: 0o644)
        let readable = try #require(throws: ConfigurationError.self) { try Self.loadFile(#""webhook_secret_file":"\#(open.path)""#) }
        #expect(readable.setting.contains("webhook_secret_file") && readable.problem.contains("chmod o-rwx"), "\(readable)")
        let empty = try Self.temporaryFile("\n \n")
        let nothing = try #require(throws: ConfigurationError.self) { try Self.loadFile(#""webhook_secret_file":"\#(empty.path)""#) }
        #expect(nothing.problem.contains("holds no secret"), "\(nothing)")
        let twice = try #require(throws: ConfigurationError.self) {
            try Self.loadFile(#""webhook_secret_file":"\#(good.path)","webhook_secret":"\#(Self.old)""#)
        }
        #expect(twice.problem.contains("webhook_secret and webhook_secret_file"), "\(twice)")
    }
}
