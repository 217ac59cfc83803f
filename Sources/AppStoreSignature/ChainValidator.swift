import Crypto
import Foundation
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

/// Validates an `x5c` chain to the configured roots and yields the leaf's signing key.
///
/// Trusts only the configured roots: `x5c[2]` must be present (Apple always sends three)
/// but is never used, and `x5c[1]` is offered only as an untrusted intermediate. With
/// `revocation`, a chain valid offline is also checked over OCSP, and a cached chain answers
/// only while its last check is recent.
struct ChainValidator: Sendable {
    let roots: CertificateStore
    let cache: VerifiedChainCache
    let revocation: RevocationChecking?

    init(roots: AppleRootCertificates, cacheCapacity: Int, revocation: RevocationChecking?) {
        self.roots = CertificateStore(roots.certificates)
        cache = VerifiedChainCache(capacity: cacheCapacity)
        self.revocation = revocation
    }

    /// The P-256 key of the leaf of `x5c`, once the chain is valid at `time` (and, with
    /// revocation checking, not revoked at `now`).
    func leafKey(x5c: [String]?, at time: Date, now: Date) async throws(SignedPayloadError) -> P256.Signing.PublicKey {
        guard let x5c, x5c.count == 3 else { throw .chainLength }
        let key = VerifiedChainCache.Key(leaf: x5c[0], intermediate: x5c[1])
        let checkedSince = revocation.map { now.addingTimeInterval(-$0.recheckInterval) }
        if let cached = cache.leafKey(for: key, at: time, revocationCheckedSince: checkedSince) { return cached }

        guard let leafDER = Data(base64Encoded: x5c[0]).map(Array.init),
            let intermediateDER = Data(base64Encoded: x5c[1]).map(Array.init)
        else { throw .certificateEncoding }
        let leaf: Certificate
        let intermediate: Certificate
        do {
            leaf = try Certificate(derEncoded: leafDER)
            intermediate = try Certificate(derEncoded: intermediateDER)
        } catch {
            throw .certificateEncoding
        }
        var verifier = Verifier(rootCertificates: roots) {
            RFC5280Policy(fixedExpiryValidationTime: time)
            AppStoreOIDPolicy()
        }
        let intermediates = CertificateStore([intermediate])
        let result = await verifier.validate(leaf: leaf, intermediates: intermediates)
        guard case .validCertificate(let chain) = result else { throw .untrustedChain }
        if let revocation {
            try await revocation.check(leaf: leaf, intermediates: intermediates, roots: roots, signingTime: time, now: now)
        }
        guard let leafKey = P256.Signing.PublicKey(leaf.publicKey) else { throw .leafKey }
        let certificates = Array(chain)
        guard let notBefore = certificates.map(\.notValidBefore).max(),
            let notAfter = certificates.map(\.notValidAfter).min()
        else { throw .untrustedChain }
        let entry = VerifiedChainCache.Entry(
            leafKey: leafKey, notBefore: notBefore, notAfter: notAfter, revocationCheckedAt: revocation == nil ? nil : now)
        cache.store(entry, for: key)
        return leafKey
    }
}
