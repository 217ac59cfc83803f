import Foundation
import Settings
import Testing
import Webhooks

@Suite("Webhook and retention settings")
struct WebhookConfigurationTests {
    static let base = ["APPSTORE_BUNDLE_ID": "com.example.app", "APPSTORE_SHARED_SECRET": "s"]
    static let secret = String(repeating: "k", count: 32)

    static func load(_ settings: [String: String]) throws -> ServiceConfiguration {
        try ServiceConfiguration.load(environment: base.merging(settings) { _, new in new })
    }

    @Test(
        "an http:// URL outside loopback stops startup naming WEBHOOK_URL",
        arguments: [
            "http://hooks.example.com/subscriptiond", "http://10.0.0.5/hooks", "ftp://hooks.example.com/x", "not a url",
        ])
    func plainTextURLRefused(url: String) throws {
        let error = try #require(throws: ConfigurationError.self) { try Self.load(["WEBHOOK_URL": url, "WEBHOOK_SECRET": Self.secret]) }
        #expect(error.setting == "WEBHOOK_URL")
    }

    @Test("https:// anywhere and http:// on loopback are accepted and apply to every app without its own")
    func acceptedURLs() throws {
        for url in ["https://hooks.example.com/x", "http://127.0.0.1:9/hooks", "http://localhost/hooks"] {
            let configuration = try Self.load(["WEBHOOK_URL": url, "WEBHOOK_SECRET": Self.secret])
            #expect(configuration.apps.app(bundleID: "com.example.app")?.webhook?.url == url)
        }
        #expect(try Self.load([:]).apps.app(bundleID: "com.example.app")?.webhook == nil)
    }

    @Test("a short or missing secret stops startup; a secret without a URL too")
    func secretRules() throws {
        let short = try #require(throws: ConfigurationError.self) {
            try Self.load(["WEBHOOK_URL": "https://h.example.com", "WEBHOOK_SECRET": String(repeating: "k", count: 31)])
        }
        #expect(short.setting == "WEBHOOK_SECRET")
        let missing = try #require(throws: ConfigurationError.self) { try Self.load(["WEBHOOK_URL": "https://h.example.com"]) }
        #expect(missing.setting == "WEBHOOK_SECRET")
        let alone = try #require(throws: ConfigurationError.self) { try Self.load(["WEBHOOK_SECRET": Self.secret]) }
        #expect(alone.setting == "WEBHOOK_URL")
    }

    @Test("per-app webhook_url / webhook_secret in SUBSCRIPTIOND_CONFIG win over WEBHOOK_URL and follow the same rules")
    func perAppWebhooks() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hooks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("config.json")
        func write(_ url: String) throws {
            let json =
                #"{"apps":[{"bundle_id":"com.example.one","shared_secret":"a","webhook_url":"\#(url)","webhook_secret":"\#(Self.secret)"},"#
                + #"{"bundle_id":"com.example.two","shared_secret":"b"}]}"#
            try Data(json.utf8).write(to: file)
        }
        try write("https://one.example.com/hooks")
        let configuration = try ServiceConfiguration.load(environment: [
            "SUBSCRIPTIOND_CONFIG": file.path, "WEBHOOK_URL": "https://all.example.com/hooks", "WEBHOOK_SECRET": Self.secret,
        ])
        #expect(configuration.apps.app(bundleID: "com.example.one")?.webhook?.url == "https://one.example.com/hooks")
        #expect(configuration.apps.app(bundleID: "com.example.two")?.webhook?.url == "https://all.example.com/hooks")
        try write("http://one.example.com/hooks")
        let error = try #require(throws: ConfigurationError.self) {
            try ServiceConfiguration.load(environment: ["SUBSCRIPTIOND_CONFIG": file.path])
        }
        #expect(error.setting.contains("webhook_url"))
    }

    @Test("retention defaults to 90 days keeping signed payloads and every month; RETENTION_DROP_SIGNED must be a boolean")
    func retentionSettings() throws {
        let defaults = try Self.load([:])
        #expect(defaults.retentionDays == 90)
        #expect(defaults.retentionDropSigned == false)
        #expect(defaults.webhookConcurrency == 8)
        #expect(defaults.webhookTimeout == .milliseconds(10_000))
        #expect(try Self.load(["RETENTION_DROP_SIGNED": "true", "RETENTION_DAYS": "30"]).retentionDropSigned)
        #expect(throws: ConfigurationError.self) { try Self.load(["RETENTION_DROP_SIGNED": "maybe"]) }
        #expect(throws: ConfigurationError.self) { try Self.load(["RETENTION_DAYS": "0"]) }
        #expect(defaults.partitionRetentionDays == nil, "months are kept unless the operator asks")
        #expect(try Self.load(["PARTITION_RETENTION_DAYS": "120"]).partitionRetentionDays == 120)
        #expect(try Self.load(["PARTITION_RETENTION_DAYS": ""]).partitionRetentionDays == nil)
        #expect(throws: ConfigurationError.self) { try Self.load(["PARTITION_RETENTION_DAYS": "0"]) }
        #expect(throws: ConfigurationError.self) { try Self.load(["PARTITION_RETENTION_DAYS": "ninety"]) }
    }

    @Test("signatures: v1= hex HMAC-SHA256 over timestamp.body; another secret, body or timestamp does not verify")
    func signature() {
        let body = Array(#"{"id":"evt_1"}"#.utf8)
        let header = WebhookSignature.header(secret: Secret(Self.secret), timestamp: 1_700_000_000, body: body)
        #expect(header.hasPrefix("v1=") && header.count == 3 + 64)
        #expect(WebhookSignature.isValid(header: header, secret: Self.secret, timestamp: 1_700_000_000, body: body))
        #expect(!WebhookSignature.isValid(header: header, secret: Self.secret + "!", timestamp: 1_700_000_000, body: body))
        #expect(!WebhookSignature.isValid(header: header, secret: Self.secret, timestamp: 1_700_000_001, body: body))
        #expect(!WebhookSignature.isValid(header: header, secret: Self.secret, timestamp: 1_700_000_000, body: body + [0x20]))
    }

    @Test("backoff grows, stays within its cap, and gives up 3 days after the event")
    func backoff() throws {
        let policy = WebhookRetryPolicy()
        let created = Date(timeIntervalSince1970: 1_700_000_000)
        let first = try #require(policy.nextAttempt(after: 1, windowStart: created, now: created, random: 0.5))
        let fifth = try #require(policy.nextAttempt(after: 5, windowStart: created, now: created, random: 0.5))
        #expect(first.timeIntervalSince(created) == 10)
        #expect(fifth.timeIntervalSince(created) == 160)
        let late = try #require(policy.nextAttempt(after: 60, windowStart: created, now: created, random: 1))
        #expect(late.timeIntervalSince(created) <= 3_600 * 1.2)
        #expect(policy.nextAttempt(after: 60, windowStart: created, now: created.addingTimeInterval(3 * 86_400 - 60), random: 0.5) == nil)
    }
}
