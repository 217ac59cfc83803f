import AppStore
import AppStoreServerAPI
import AppStoreSignature
import Crypto
import Foundation
import Logging
import Synchronization
import Testing

@Suite("App Store Server API: token and authorisation")
struct AppStoreAPIAuthTests {
    @Test("the bearer token has Apple's header and claims and verifies with the public key")
    func tokenShape() async throws {
        try await APIHarness.with { harness in
            let transaction = try harness.signedTransaction(id: "1000", environment: "Production")
            harness.server.respond { _ in .json(["signedTransactionInfo": transaction]) }
            let client = try harness.client()
            let before = Date()
            _ = try await client.transactionInfo(transactionID: "1000")
            let token = try #require(harness.server.requests.first?.token)
            let parts = try #require(TestJWT.decode(token))
            #expect(parts.header.count == 3)
            #expect(parts.header["alg"] as? String == "ES256")
            #expect(parts.header["kid"] as? String == APIHarness.keyID)
            #expect(parts.header["typ"] as? String == "JWT")
            #expect(Set(parts.claims.keys) == ["iss", "iat", "exp", "aud", "bid"])
            #expect(parts.claims["iss"] as? String == APIHarness.issuerID)
            #expect(parts.claims["aud"] as? String == "appstoreconnect-v1")
            #expect(parts.claims["bid"] as? String == TestPayloads.bundleID)
            let iat = try #require((parts.claims["iat"] as? NSNumber)?.doubleValue)
            let exp = try #require((parts.claims["exp"] as? NSNumber)?.doubleValue)
            #expect(iat >= before.timeIntervalSince1970.rounded(.down) - 1 && iat <= Date().timeIntervalSince1970)
            #expect(exp > iat && exp <= iat + 3600)
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: parts.signature)
            #expect(harness.apiKey.publicKey.isValidSignature(signature, for: Data(parts.signingInput.utf8)))
            #expect(!P256.Signing.PrivateKey().publicKey.isValidSignature(signature, for: Data(parts.signingInput.utf8)))
        }
    }

    @Test("a token signed with another key is refused (401) and reported as permanent auth failure")
    func wrongKey() async throws {
        try await APIHarness.with { harness in
            let transaction = try harness.signedTransaction(id: "1000", environment: "Production")
            harness.server.respond { _ in .json(["signedTransactionInfo": transaction]) }
            let client = try harness.client(key: P256.Signing.PrivateKey())
            let error = await #expect(throws: AppStoreAPIError.self) {
                try await client.transactionInfo(transactionID: "1000")
            }
            #expect(error == .unauthorized(environment: .production))
            #expect(error?.retry == .permanent)
            #expect(
                error?.description.contains("key") == true && error?.description.contains("issuer id") == true
                    && error?.description.contains("bundle id") == true)
            #expect(harness.server.requests.count == 1, "401 is not retried and does not fall back to sandbox")
        }
    }

    @Test("a key that is not a .p8 P-256 key fails with invalidPrivateKey")
    func badKey() async throws {
        try await APIHarness.with { harness in
            #expect(throws: AppStoreAPIError.invalidPrivateKey) {
                _ = try AppStoreAPIClient(
                    bundleID: "b", issuerID: "i", keyID: "k", privateKeyPEM: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
                    productionURL: harness.server.productionURL, sandboxURL: harness.server.sandboxURL, http: harness.http,
                    timeout: .seconds(1), verifier: harness.verifier, logger: .init(label: "test")
                )
            }
        }
    }

    @Test("one token serves many requests instead of one signature per request")
    func tokenReuse() async throws {
        try await APIHarness.with { harness in
            let transaction = try harness.signedTransaction(id: "1000", environment: "Production")
            harness.server.respond { _ in .json(["signedTransactionInfo": transaction]) }
            let client = try harness.client()
            for _ in 0..<6 {
                _ = try await client.transactionInfo(transactionID: "1000")
            }
            let tokens = harness.server.requests.compactMap(\.token)
            #expect(tokens.count == 6)
            #expect(Set(tokens).count == 1)
        }
    }

    @Test("a token older than its reuse window is replaced by a fresh one")
    func tokenRotation() async throws {
        try await APIHarness.with { harness in
            let transaction = try harness.signedTransaction(id: "1000", environment: "Production")
            harness.server.respond { _ in .json(["signedTransactionInfo": transaction]) }
            // The clock starts 250 s in the past (its token is still valid for the server), then jumps to now.
            let offset = Mutex<TimeInterval>(-250)
            let signer = try AppStoreAPIToken(
                privateKeyPEM: harness.apiKey.pemRepresentation, keyID: APIHarness.keyID, issuerID: APIHarness.issuerID,
                bundleID: TestPayloads.bundleID)
            let client = AppStoreAPIClient(
                bundleID: TestPayloads.bundleID, token: signer, productionURL: harness.server.productionURL,
                sandboxURL: harness.server.sandboxURL, http: harness.http, timeout: .seconds(5), verifier: harness.verifier,
                logger: Logger(label: "test"), now: { Date().addingTimeInterval(offset.withLock { $0 }) }
            )
            _ = try await client.transactionInfo(transactionID: "1000")
            _ = try await client.transactionInfo(transactionID: "1000")
            offset.withLock { $0 = 0 }
            _ = try await client.transactionInfo(transactionID: "1000")
            let tokens = harness.server.requests.compactMap(\.token)
            #expect(tokens.count == 3)
            #expect(tokens[0] == tokens[1])
            #expect(tokens[1] != tokens[2])
        }
    }
}
