import AppStore
import AppStoreServerAPI
import AppStoreSignature
import Foundation
import HTTPClient
import Logging
import SigningTestSupport
import Synchronization
import TestSupport
import Testing

/// `APPSTORE_ONLINE_CHECKS`: a chain valid offline is also asked about over OCSP, leaf and
/// intermediate, through libcurl, against real `openssl ocsp` responders on loopback.
/// Only "good" admits; "revoked" rejects; no answer is `unavailable` (retry), never acceptance.
@Suite("Online checks: OCSP of leaf and intermediate through libcurl", .serialized)
struct OnlineChecksTests {
    /// Runs `body` with a client for OCSP questions, shut down afterwards.
    static func withResponderClient<T>(timeout: Duration = .seconds(10), _ body: (OCSPResponderClient) async throws -> T) async throws -> T
    {
        let http = CurlHTTPClient(configuration: .init(), logger: Logger(label: "ocsp-test"))
        do {
            let result = try await body(OCSPResponderClient(http: http, timeout: timeout))
            try await http.shutdown()
            return result
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    static func roots(_ chain: OCSPTestChain) -> AppleRootCertificates { AppleRootCertificates([chain.pki.root.certificate]) }

    /// A signed transaction of `chain`, signed now.
    static func transaction(_ chain: OCSPTestChain) throws -> String {
        try TestJWS.sign(payload: TestPayloads.transaction(id: "2000000000000123", environment: "Sandbox"), by: chain.pki)
    }

    static func failure(of verification: () async throws -> Void) async -> SignedPayloadError? {
        do {
            try await verification()
            return nil
        } catch let error as SignedPayloadError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test("both answered good: verified, and asked again only after the recheck interval")
    func good() async throws {
        let chain = try OCSPTestChain()
        let leaf = try await chain.leafResponder()
        let intermediate = try await chain.intermediateResponder()
        defer {
            leaf.stop()
            intermediate.stop()
        }
        let clock = Mutex(Date())
        try await Self.withResponderClient { client in
            let verifier = SignedPayloadVerifier(
                roots: Self.roots(chain), revocation: client.revocationChecking, now: { clock.withLock { $0 } })
            let transaction = try await verifier.verifyTransaction(try Self.transaction(chain))
            #expect(transaction.transactionID == "2000000000000123")
            _ = try await verifier.verifyTransaction(try Self.transaction(chain))
            #expect(verifier.fullChainValidationCount == 1, "a chain answered good is cached")

            // Past the recheck interval the chain is asked about again: the leaf is now revoked.
            leaf.stop()
            let revoked = try await chain.leafResponder(revoked: true)
            defer { revoked.stop() }
            clock.withLock { $0 = $0.addingTimeInterval(RevocationChecking.defaultRecheckInterval + 1) }
            let error = await Self.failure { _ = try await verifier.verifyTransaction(try Self.transaction(chain)) }
            #expect(error?.kind == .rejected)
            #expect(error?.reason.contains("revoked") == true)
        }
    }

    @Test("a revoked leaf or intermediate is rejected, never retried")
    func revoked() async throws {
        for revokedLeaf in [true, false] {
            let chain = try OCSPTestChain()
            let leaf = try await chain.leafResponder(revoked: revokedLeaf)
            let intermediate = try await chain.intermediateResponder(revoked: !revokedLeaf)
            defer {
                leaf.stop()
                intermediate.stop()
            }
            try await Self.withResponderClient { client in
                let verifier = SignedPayloadVerifier(roots: Self.roots(chain), revocation: client.revocationChecking)
                let error = await Self.failure { _ = try await verifier.verifyTransaction(try Self.transaction(chain)) }
                #expect(error?.kind == .rejected, "revoked \(revokedLeaf ? "leaf" : "intermediate")")
                #expect(verifier.fullChainValidationCount == 0)
            }
        }
    }

    @Test("a responder that is down or silent is unavailable (retry), never an acceptance; offline checks never ask")
    func unanswered() async throws {
        let chain = try OCSPTestChain()
        // Nothing listens on the leaf's port: connection refused.
        let intermediate = try await chain.intermediateResponder()
        defer { intermediate.stop() }
        try await Self.withResponderClient { client in
            let verifier = SignedPayloadVerifier(roots: Self.roots(chain), revocation: client.revocationChecking)
            let error = await Self.failure { _ = try await verifier.verifyTransaction(try Self.transaction(chain)) }
            #expect(error?.kind == .unavailable)
            #expect(error.map { "\($0)" } == "signed payload not checkable now")

            // The responder comes back: the same payload verifies, nothing was remembered.
            let leaf = try await chain.leafResponder()
            defer { leaf.stop() }
            _ = try await verifier.verifyTransaction(try Self.transaction(chain))
        }

        // A responder that accepts the connection and never answers: the client's deadline.
        let silent = try SilentListener()
        defer { silent.close() }
        let silentChain = try TestPKI(.init(leafOCSPURL: OCSPResponderProcess.url(port: silent.port)))
        try await Self.withResponderClient(timeout: .milliseconds(500)) { client in
            let verifier = SignedPayloadVerifier(
                roots: AppleRootCertificates([silentChain.root.certificate]), revocation: client.revocationChecking)
            let jws = try TestJWS.sign(payload: TestPayloads.transaction(id: "2000000000000124", environment: "Sandbox"), by: silentChain)
            let error = await Self.failure { _ = try await verifier.verifyTransaction(jws) }
            #expect(error?.kind == .unavailable)
        }

        // Without online checks the same chain verifies with every responder down.
        let offline = SignedPayloadVerifier(roots: Self.roots(chain))
        _ = try await offline.verifyTransaction(try Self.transaction(chain))
    }

    @Test("a nested JWS that cannot be checked makes the notification unavailable, not forged")
    func nestedUnavailable() async throws {
        let chain = try OCSPTestChain()
        try await Self.withResponderClient { client in
            let verifier = SignedPayloadVerifier(roots: Self.roots(chain), revocation: client.revocationChecking)
            let payload = TestPayloads.notification(
                type: "DID_RENEW", environment: "Sandbox", signedTransaction: try Self.transaction(chain))
            let error = await Self.failure { _ = try await verifier.verifyNotification(try TestJWS.sign(payload: payload, by: chain.pki)) }
            #expect(error?.kind == .unavailable)
        }
    }
}
