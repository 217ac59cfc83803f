import AppStoreSignature
import Crypto
import Foundation
import SigningTestSupport
import Testing

/// A validated chain is reused, but never for a bad signature or a time outside its window.
@Suite struct ChainCacheTests {
    @Test func secondVerificationSkipsPathValidationButNotTheSignature() async throws {
        let pki = try TestPKI()
        let verifier = SignedPayloadVerifier(roots: AppleRootCertificates([pki.root.certificate]))
        _ = try await verifier.verifyNotification(try TestJWS.sign(payload: TestPayloads.notification(), by: pki))
        #expect(verifier.fullChainValidationCount == 1)
        _ = try await verifier.verifyNotification(try TestJWS.sign(payload: TestPayloads.notification(), by: pki))
        #expect(verifier.fullChainValidationCount == 1)

        let forged = try TestJWS.sign(payload: TestPayloads.notification(), x5c: pki.x5c, key: P256.Signing.PrivateKey())
        let error = await #expect(throws: SignedPayloadError.self) { try await verifier.verifyNotification(forged) }
        #expect(error?.kind == .rejected)
    }

    @Test func aSigningTimeOutsideTheCachedWindowValidatesAgainAndFails() async throws {
        let pki = try TestPKI()
        let verifier = SignedPayloadVerifier(roots: AppleRootCertificates([pki.root.certificate]))
        _ = try await verifier.verifyNotification(try TestJWS.sign(payload: TestPayloads.notification(), by: pki))
        #expect(verifier.fullChainValidationCount == 1)
        // 2031: after every certificate of the chain expired.
        let late = try TestJWS.sign(payload: TestPayloads.notification(signedMillis: 1_924_992_000_000), by: pki)
        let error = await #expect(throws: SignedPayloadError.self) { try await verifier.verifyNotification(late) }
        #expect(error?.kind == .rejected)
        // 2023: before the chain was valid.
        let early = try TestJWS.sign(payload: TestPayloads.notification(signedMillis: 1_672_531_200_000), by: pki)
        await #expect(throws: SignedPayloadError.self) { try await verifier.verifyNotification(early) }
        #expect(verifier.fullChainValidationCount == 1)
    }

    @Test func theCacheIsBounded() async throws {
        // Three distinct chains, then the first again: evicted, so validated a second time.
        var chains: [TestPKI] = []
        for _ in 0..<3 { chains.append(try TestPKI()) }
        let roots = AppleRootCertificates(chains.map(\.root.certificate))
        let bounded = SignedPayloadVerifier(roots: roots, cacheCapacity: 2)
        for pki in chains + [chains[0]] {
            _ = try await bounded.verifyNotification(try TestJWS.sign(payload: TestPayloads.notification(), by: pki))
        }
        #expect(bounded.fullChainValidationCount == 4)
        // The most recent two are still cached.
        _ = try await bounded.verifyNotification(try TestJWS.sign(payload: TestPayloads.notification(), by: chains[2]))
        #expect(bounded.fullChainValidationCount == 4)
    }

    @Test func concurrentVerificationsAgree() async throws {
        let pki = try TestPKI()
        let verifier = SignedPayloadVerifier(roots: AppleRootCertificates([pki.root.certificate]))
        let jws = try TestJWS.sign(payload: TestPayloads.notification(), by: pki)
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 {
                group.addTask { (try? await verifier.verifyNotification(jws)) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 })
        #expect(verifier.fullChainValidationCount >= 1)
    }
}
