import Foundation
import HTTPClient
import Settings
import Testing
import Webhooks

/// The signatures against vectors computed elsewhere: the Standard Webhooks reference
/// libraries' own test vector, and vectors made with Python's hmac (noted beside each).
@Suite("Standard Webhooks signatures: known vectors, whsec_ keys, rotation, the legacy header unchanged")
struct StandardWebhookSignatureTests {
    static let plain = "webhook-secret-0123456789abcdef-0123456789"
    /// `"whsec_" + base64(bytes 0...31)`.
    static let standard = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
    static let id = "evt_0123456789abcdef"
    static let timestamp: Int64 = 1_764_000_000
    static let body = Array(#"{"id":"evt_0123456789abcdef","type":"renewed"}"#.utf8)

    static func secret(_ text: String) throws -> WebhookSecret {
        try WebhookSecret(text, setting: "test")
    }

    @Test("the reference libraries' vector: whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw signs msg_p5jXN8AQM9LWM0D4loKWxJek")
    func referenceVector() throws {
        // libraries/go/webhook_test.go (TestWebhookSign) of the Standard Webhooks repository.
        let secret = try Self.secret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        let header = StandardWebhookSignature.header(
            secrets: [secret], id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: Array(#"{"test": 2432232314}"#.utf8))
        #expect(header == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test("a secret without whsec_ is keyed with its UTF-8 bytes; a whsec_ secret with its decoded key, padded or not")
    func keys() throws {
        // base64(hmac.new(key, b"evt_0123456789abcdef.1764000000." + body, sha256).digest()) in Python.
        let plain = StandardWebhookSignature.header(
            secrets: [try Self.secret(Self.plain)], id: Self.id, timestamp: Self.timestamp, body: Self.body)
        #expect(plain == "v1,QwUgPICtUYMpWvbT7SxulSaqDOzuf/lmF2pGlVdvYTs=")
        let standard = try Self.secret(Self.standard)
        #expect(standard.standardKeyBytes == Array(0..<32))
        #expect(
            StandardWebhookSignature.header(secrets: [standard], id: Self.id, timestamp: Self.timestamp, body: Self.body)
                == "v1,jOdnO9jlrD9SQwN98Qb1C5VemnbYLhR2uDlwtX3i628=")
        let unpadded = try Self.secret(String(Self.standard.dropLast()))
        #expect(unpadded.standardKeyBytes == standard.standardKeyBytes, "the libraries accept unpadded base64 too")
        #expect(
            !StandardWebhookSignature.isValid(
                header: plain, key: Array(Self.plain.utf8), id: Self.id, timestamp: Self.timestamp + 1, body: Self.body))
        #expect(
            StandardWebhookSignature.isValid(
                header: plain, key: Array(Self.plain.utf8), id: Self.id, timestamp: Self.timestamp, body: Self.body))
        #expect(
            !StandardWebhookSignature.isValid(
                header: plain, key: Array(Self.plain.utf8), id: Self.id + "x", timestamp: Self.timestamp, body: Self.body))
    }

    @Test("Subscriptiond-Signature keeps its bytes: the secret's text as configured, whsec_ included")
    func legacyHeaderUnchanged() throws {
        // hmac.new(secret.encode(), b"1764000000." + body, sha256).hexdigest() in Python.
        let headers = WebhookHeaders.signed(id: Self.id, timestamp: Self.timestamp, body: Self.body, secrets: [try Self.secret(Self.plain)])
        #expect(headers.first(named: "Subscriptiond-Signature") == "v1=ad8dbbb671b2d25ec49be9b7aac11b4987ce40967214ae6176785d8546c2930d")
        #expect(
            headers.first(named: "Subscriptiond-Signature")
                == WebhookSignature.header(secret: Secret(Self.plain), timestamp: Self.timestamp, body: Self.body))
        let standard = WebhookHeaders.signed(
            id: Self.id, timestamp: Self.timestamp, body: Self.body, secrets: [try Self.secret(Self.standard)])
        #expect(standard.first(named: "Subscriptiond-Signature") == "v1=9f172cce97507833acf37de272295cb7cbb4938b8b16dbd5e80ead8d384423d7")
        #expect(
            headers.map(\.name) == [
                "Subscriptiond-Event-Id", "Subscriptiond-Timestamp", "Subscriptiond-Signature", "webhook-id", "webhook-timestamp",
                "webhook-signature",
            ])
        #expect(headers.first(named: "webhook-id") == Self.id && headers.first(named: "Subscriptiond-Event-Id") == Self.id)
        #expect(
            headers.first(named: "webhook-timestamp") == "1764000000" && headers.first(named: "Subscriptiond-Timestamp") == "1764000000")
    }

    @Test("during a rotation both headers carry one signature per secret, newest first, each verifying with its own secret alone")
    func rotation() throws {
        let new = try Self.secret(Self.standard)
        let old = try Self.secret(Self.plain)
        let headers = WebhookHeaders.signed(id: Self.id, timestamp: Self.timestamp, body: Self.body, secrets: [new, old])
        let standard = try #require(headers.first(named: "webhook-signature"))
        #expect(standard == "v1,jOdnO9jlrD9SQwN98Qb1C5VemnbYLhR2uDlwtX3i628= v1,QwUgPICtUYMpWvbT7SxulSaqDOzuf/lmF2pGlVdvYTs=")
        let legacy = try #require(headers.first(named: "Subscriptiond-Signature"))
        #expect(
            legacy
                == "v1=9f172cce97507833acf37de272295cb7cbb4938b8b16dbd5e80ead8d384423d7,v1=ad8dbbb671b2d25ec49be9b7aac11b4987ce40967214ae6176785d8546c2930d"
        )
        for secret in [new, old] {
            #expect(
                StandardWebhookSignature.isValid(
                    header: standard, key: secret.standardKeyBytes, id: Self.id, timestamp: Self.timestamp, body: Self.body))
            #expect(WebhookSignature.isValid(header: legacy, secret: secret.text.revealed, timestamp: Self.timestamp, body: Self.body))
        }
        let neither = try Self.secret(String(repeating: "n", count: 32))
        #expect(
            !StandardWebhookSignature.isValid(
                header: standard, key: neither.standardKeyBytes, id: Self.id, timestamp: Self.timestamp, body: Self.body))
        #expect(!WebhookSignature.isValid(header: legacy, secret: neither.text.revealed, timestamp: Self.timestamp, body: Self.body))
    }

    @Test("a webhook secret never prints")
    func redacted() throws {
        let secret = try Self.secret(Self.standard)
        let target = WebhookTarget(url: "https://hooks.example.com", secret: secret, older: [try Self.secret(Self.plain)])
        for text in ["\(secret)", String(reflecting: secret), "\(target)", String(reflecting: target)] {
            #expect(!text.contains("AAECAwQF") && !text.contains("webhook-secret-0123"), "\(text)")
        }
    }
}
