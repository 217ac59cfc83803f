import Foundation
@_spi(FixedExpiryValidationTime) import X509

/// Online revocation checking (OCSP) of a chain's leaf and intermediate, as Apple's own
/// library does with online checks on (`APPSTORE_ONLINE_CHECKS=true`).
///
/// Hard fail: only an OCSP answer that verifies and says "good" for every certificate that
/// names a responder admits the chain. A responder that gives no answer (down, an HTTP
/// error, past the 10 s the OCSP policy allows) is ``SignedPayloadError/Kind-swift.enum/unavailable``,
/// so the caller retries; an answer that says "revoked", or that does not verify, is a
/// rejection. A chain answered "good" is trusted for ``recheckInterval`` before it is asked
/// about again.
public struct RevocationChecking: Sendable {
    /// Sends one DER-encoded OCSP request to the responder at `uri` and returns the DER
    /// answer; throws when no answer came (transport, HTTP status, cancellation).
    public typealias Responder = @Sendable (_ request: [UInt8], _ uri: String) async throws -> [UInt8]

    /// Fifteen minutes, as Apple's library caches a chain checked online.
    public static let defaultRecheckInterval: TimeInterval = 15 * 60

    let responder: Responder
    /// How long a chain answered "good" is trusted without asking again.
    let recheckInterval: TimeInterval

    /// Checks through `responder`, asking again about a chain after `recheckInterval` seconds.
    public init(recheckInterval: TimeInterval = Self.defaultRecheckInterval, responder: @escaping Responder) {
        self.responder = responder
        self.recheckInterval = recheckInterval
    }

    /// Throws unless the chain of `leaf` through `intermediates` to `roots` is valid at
    /// `signingTime` and every certificate naming a responder is answered "good" at `now`.
    ///
    /// The caller has validated the chain offline already, so a failure here is OCSP's.
    func check(
        leaf: Certificate, intermediates: CertificateStore, roots: CertificateStore, signingTime: Date, now: Date
    ) async throws(SignedPayloadError) {
        let requester = RecordingOCSPRequester(responder: responder)
        var verifier = Verifier(rootCertificates: roots) {
            RFC5280Policy(fixedExpiryValidationTime: signingTime)
            AppStoreOIDPolicy()
            OCSPVerifierPolicy(failureMode: .hard, requester: requester, fixedExpiryValidationTime: now)
        }
        let result = await verifier.validate(leaf: leaf, intermediates: intermediates)
        guard case .couldNotValidate = result else { return }
        throw requester.record.anyUnanswered ? .revocationUnavailable : .revoked
    }
}
