import AppStore
import Crypto
import Foundation

/// Verifies Apple's signed data (JWS) the way Apple's own server library does.
///
/// Order: parse the compact JWS; decode the payload (for its `signedDate`); require
/// `alg` ES256 and exactly three `x5c` certificates; refuse a `signedDate` outside
/// ``SigningTimeBounds`` (it is unverified yet); validate leaf → intermediate →
/// configured root at `signedDate` (now when absent) with Apple's marker extensions; then
/// check the ES256 signature with the leaf key. With ``RevocationChecking`` the leaf and
/// intermediate are also asked about over OCSP (hard fail). Validated chains are cached, so
/// a steady stream costs one signature check each. Share one instance between tasks.
public final class SignedPayloadVerifier: Sendable {
    private let chains: ChainValidator
    private let signingTimes: SigningTimeBounds
    private let now: @Sendable () -> Date

    /// A verifier trusting only `roots`, caching up to `cacheCapacity` chains.
    ///
    /// - Parameters:
    ///   - revocation: online checks (OCSP); nil checks offline only, the default.
    ///   - now: the clock for payloads without `signedDate` and for revocation (tests pin it).
    public init(
        roots: AppleRootCertificates, cacheCapacity: Int = 64, revocation: RevocationChecking? = nil,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        chains = ChainValidator(roots: roots, cacheCapacity: cacheCapacity, revocation: revocation)
        signingTimes = SigningTimeBounds(roots: roots)
        self.now = now
    }

    /// Whether chains are also checked online (OCSP), as `APPSTORE_ONLINE_CHECKS=true` asks.
    public var checksRevocation: Bool { chains.revocation != nil }

    /// Verifies a notification's `signedPayload` and its nested transaction, renewal info and
    /// (app-level notifications) AppTransaction.
    public func verifyNotification(_ signedPayload: String) async throws(SignedPayloadError) -> VerifiedNotificationV2 {
        let payload = try await verify(signedPayload, as: NotificationV2Payload.self)
        var transaction: JWSTransactionPayload?
        var renewalInfo: JWSRenewalInfoPayload?
        var appTransaction: AppTransactionPayload?
        do {
            if let jws = payload.data?.signedTransactionInfo {
                transaction = try await verify(jws, as: JWSTransactionPayload.self)
            }
            if let jws = payload.data?.signedRenewalInfo {
                renewalInfo = try await verify(jws, as: JWSRenewalInfoPayload.self)
            }
            if let jws = payload.appData?.signedAppTransactionInfo {
                appTransaction = try await verify(jws, as: AppTransactionPayload.self)
            }
        } catch  where error.kind == .unavailable {
            throw error
        } catch {
            // A signed outer payload carrying bad nested data is forged or corrupt, never just malformed.
            throw .nested
        }
        return VerifiedNotificationV2(payload: payload, transaction: transaction, renewalInfo: renewalInfo, appTransaction: appTransaction)
    }

    /// Verifies a signed transaction (StoreKit 2 from an app, or an App Store Server API answer).
    public func verifyTransaction(_ jws: String) async throws(SignedPayloadError) -> JWSTransactionPayload {
        try await verify(jws, as: JWSTransactionPayload.self)
    }

    /// Verifies a signed renewal info (App Store Server API answer).
    public func verifyRenewalInfo(_ jws: String) async throws(SignedPayloadError) -> JWSRenewalInfoPayload {
        try await verify(jws, as: JWSRenewalInfoPayload.self)
    }

    /// Verifies any JWS whose payload decodes as `type`.
    public func verify<Payload: SignedDatePayload>(_ jws: String, as type: Payload.Type) async throws(SignedPayloadError) -> Payload {
        let parsed = try CompactJWS(parsing: jws)
        let payload = try parsed.decodedPayload(as: Payload.self)
        guard parsed.algorithm == "ES256" else { throw .algorithm }
        let clock = now()
        let signingTime = payload.signedDate ?? clock
        guard signingTimes.admits(signingTime, now: clock) else { throw .signedDate }
        let leafKey = try await chains.leafKey(x5c: parsed.certificateChain, at: signingTime, now: clock)
        guard ES256.isValid(signature: parsed.signature, for: parsed.signingInput, key: leafKey) else {
            throw .signature
        }
        return payload
    }

    /// How many chains went through full path validation (cache hits do not count); for tests.
    public var fullChainValidationCount: Int { chains.cache.fullValidationCount }
}
