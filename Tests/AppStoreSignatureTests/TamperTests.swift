import AppStore
import AppStoreSignature
import Crypto
import Foundation
import SigningTestSupport
import Testing

/// Every forged or broken JWS is rejected (401), never accepted and never called malformed.
@Suite struct TamperTests {
    let pki: TestPKI
    let verifier: SignedPayloadVerifier

    init() throws {
        pki = try TestPKI()
        verifier = SignedPayloadVerifier(roots: AppleRootCertificates([pki.root.certificate]))
    }

    func expectRejected(_ jws: String, _ comment: Comment) async {
        let error = await #expect(throws: SignedPayloadError.self, comment) {
            try await verifier.verifyNotification(jws)
        }
        #expect(error?.kind == .rejected, comment)
    }

    @Test func theUntamperedControlVerifies() async throws {
        let verified = try await verifier.verifyNotification(try TestJWS.sign(payload: TestPayloads.notification(), by: pki))
        #expect(verified.payload.notificationType == .didRenew)
        #expect(verified.payload.appAppleID == "1234")
    }

    @Test func onePayloadByteChanged() async throws {
        let parts = try TestJWS.sign(payload: TestPayloads.notification(), by: pki).split(separator: ".")
        let forged = TestPayloads.notification().replacingOccurrences(of: "DID_RENEW", with: "DID_RENEX")
        await expectRejected("\(parts[0]).\(TestJWS.base64URL(Array(forged.utf8))).\(parts[2])", "payload changed")
    }

    @Test func signatureFromAnotherKey() async throws {
        let jws = try TestJWS.sign(payload: TestPayloads.notification(), x5c: pki.x5c, key: P256.Signing.PrivateKey())
        await expectRejected(jws, "foreign key")
    }

    @Test func chainShapes() async throws {
        let (leaf, intermediate, root) = (pki.leaf.base64, pki.intermediate.base64, pki.root.base64)
        let shapes: [([String]?, Comment)] = [
            ([intermediate, leaf, root], "re-ordered"),
            ([leaf, root, intermediate], "intermediate last"),
            ([leaf, intermediate], "two certificates"),
            ([leaf, intermediate, root, root], "four certificates"),
            ([leaf, intermediate, "not base64!"], "junk third entry is ignored but the rest must hold"),
            (nil, "missing x5c"),
            ([], "empty x5c"),
        ]
        for (x5c, comment) in shapes {
            let jws = try TestJWS.sign(payload: TestPayloads.notification(), x5c: x5c, key: pki.leaf.key)
            if comment == "junk third entry is ignored but the rest must hold" {
                // Apple's library never reads x5c[2]; only the configured root is trusted.
                _ = try await verifier.verifyNotification(jws)
            } else {
                await expectRejected(jws, comment)
            }
        }
    }

    @Test func chainUnderAnUntrustedRoot() async throws {
        let stranger = try TestPKI(.init(name: "Stranger"))
        await expectRejected(try TestJWS.sign(payload: TestPayloads.notification(), by: stranger), "untrusted root")
    }

    @Test func theTrustedRootInsideX5cDoesNotHelpAStranger() async throws {
        // A stranger's chain that names our root as x5c[2] still has to chain to it.
        let stranger = try TestPKI(.init(name: "Stranger"))
        let x5c = [stranger.leaf.base64, stranger.intermediate.base64, pki.root.base64]
        await expectRejected(try TestJWS.sign(payload: TestPayloads.notification(), x5c: x5c, key: stranger.leaf.key), "borrowed root")
    }

    @Test func markersAreRequired() async throws {
        for (options, comment) in [
            (TestPKI.Options(leafMarker: false), Comment("leaf without marker")),
            (TestPKI.Options(intermediateMarker: false), Comment("intermediate without marker")),
        ] {
            let broken = try TestPKI(options)
            let verifier = SignedPayloadVerifier(roots: AppleRootCertificates([broken.root.certificate]))
            let jws = try TestJWS.sign(payload: TestPayloads.notification(), by: broken)
            let error = await #expect(throws: SignedPayloadError.self, comment) { try await verifier.verifyNotification(jws) }
            #expect(error?.kind == .rejected, comment)
        }
    }

    @Test func leafExpiredAtSignedDate() async throws {
        var options = TestPKI.Options()
        options.leafNotAfter = Date(timeIntervalSince1970: 1_717_200_000)  // 2024-06-01
        let expired = try TestPKI(options)
        let verifier = SignedPayloadVerifier(roots: AppleRootCertificates([expired.root.certificate]))
        let jws = try TestJWS.sign(payload: TestPayloads.notification(), by: expired)
        let error = await #expect(throws: SignedPayloadError.self) { try await verifier.verifyNotification(jws) }
        #expect(error?.kind == .rejected)
        // Signed while the leaf was valid, it verifies: validation time is signedDate, not now.
        let early = try TestJWS.sign(payload: TestPayloads.notification(signedMillis: 1_709_251_200_000), by: expired)
        _ = try await verifier.verifyNotification(early)
    }

    @Test func signedBeforeTheChainWasValid() async throws {
        let jws = try TestJWS.sign(payload: TestPayloads.notification(signedMillis: 1_672_531_200_000), by: pki)
        await expectRejected(jws, "signed in 2023, chain valid from 2024")
    }

    @Test(arguments: ["none", "HS256", "ES384", "RS256"])
    func otherAlgorithms(_ alg: String) async throws {
        let jws = try TestJWS.sign(payload: TestPayloads.notification(), x5c: pki.x5c, alg: alg, key: pki.leaf.key)
        await expectRejected(jws, "alg \(alg)")
    }

    @Test func unsignedAlgNoneWithEmptySignature() async throws {
        let parts = try TestJWS.sign(payload: TestPayloads.notification(), x5c: pki.x5c, alg: "none", key: pki.leaf.key)
            .split(separator: ".")
        await expectRejected("\(parts[0]).\(parts[1]).", "alg none, no signature")
    }

    @Test func nestedTransactionFromAnUntrustedChain() async throws {
        let stranger = try TestPKI(.init(name: "Stranger"))
        let transaction = try TestJWS.sign(payload: TestPayloads.transaction(), by: stranger)
        let outer = try TestJWS.sign(payload: TestPayloads.notification(transaction: transaction), by: pki)
        await expectRejected(outer, "nested transaction from a stranger")
        let renewal = try TestJWS.sign(payload: TestPayloads.renewal(), by: stranger)
        let outer2 = try TestJWS.sign(payload: TestPayloads.notification(renewal: renewal), by: pki)
        await expectRejected(outer2, "nested renewal from a stranger")
        let outer3 = try TestJWS.sign(payload: TestPayloads.notification(transaction: "abc"), by: pki)
        await expectRejected(outer3, "nested garbage is a rejection, not malformed")
    }

    @Test func nestedDataVerifiesAndDecodes() async throws {
        let transaction = try TestJWS.sign(payload: TestPayloads.transaction(), by: pki)
        let renewal = try TestJWS.sign(payload: TestPayloads.renewal(), by: pki)
        let outer = try TestJWS.sign(payload: TestPayloads.notification(transaction: transaction, renewal: renewal), by: pki)
        let verified = try await verifier.verifyNotification(outer)
        #expect(verified.transaction?.originalTransactionID == "2000000000000001")
        #expect(verified.renewalInfo?.willAutoRenew == true)
        #expect(try await verifier.verifyTransaction(transaction).productID == "pro.monthly")
        #expect(try await verifier.verifyRenewalInfo(renewal).autoRenewProductID == "pro.monthly")
    }
}
