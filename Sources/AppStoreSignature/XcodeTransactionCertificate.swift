import AppStore
import Crypto
import Foundation
import SwiftASN1
import X509

/// The local certificate of a StoreKit configuration (`.storekit`, exported from Xcode's
/// Editor menu with "Save Public Certificate"): what StoreKit Testing in Xcode signs
/// transactions with. It chains to nothing, so a transaction is trusted only when its one
/// `x5c` certificate is byte for byte this one and its ES256 signature verifies with this
/// certificate's key.
public struct XcodeTransactionCertificate: Sendable, Hashable {
    /// The certificate's DER bytes.
    public let der: [UInt8]
    private let key: P256.Signing.PublicKey

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.der == rhs.der }
    public func hash(into hasher: inout Hasher) { hasher.combine(der) }

    /// The certificate in `contents` (PEM, or DER as Xcode saves it); nil when it is neither,
    /// or its key is not P-256.
    public init?(contents: [UInt8]) {
        let certificate: Certificate
        if let text = String(bytes: contents, encoding: .utf8), text.contains("-----BEGIN CERTIFICATE-----") {
            guard let parsed = try? Certificate(pemEncoded: text) else { return nil }
            certificate = parsed
        } else {
            guard let parsed = try? Certificate(derEncoded: contents) else { return nil }
            certificate = parsed
        }
        var serializer = DER.Serializer()
        guard (try? serializer.serialize(certificate)) != nil, let key = P256.Signing.PublicKey(certificate.publicKey) else {
            return nil
        }
        der = serializer.serializedBytes
        self.key = key
    }

    /// What a StoreKit Testing transaction (one `x5c` certificate, payload `environment`
    /// `Xcode`) claims, before anything is verified: which app's certificate to verify it
    /// with. Nil for any other JWS.
    public struct Claim: Sendable {
        /// The payload's `bundleId`, unverified.
        public let bundleID: String?
    }

    /// The claim of `jws` when it looks like a StoreKit Testing transaction, else nil.
    public static func claim(of jws: String) -> Claim? {
        guard let parsed = try? CompactJWS(parsing: jws), parsed.certificateChain?.count == 1,
            let payload = try? parsed.decodedPayload(as: JWSTransactionPayload.self),
            payload.environmentRaw == AppStoreEnvironment.xcode.rawValue
        else { return nil }
        return Claim(bundleID: payload.bundleID)
    }

    /// The transaction in `jws`, verified: ES256, exactly one `x5c` certificate equal to this
    /// one, a signature that verifies with its key, and the environment `Xcode`.
    public func verifyTransaction(_ jws: String) throws(SignedPayloadError) -> JWSTransactionPayload {
        let parsed = try CompactJWS(parsing: jws)
        let payload = try parsed.decodedPayload(as: JWSTransactionPayload.self)
        guard parsed.algorithm == "ES256" else { throw .algorithm }
        guard let chain = parsed.certificateChain, chain.count == 1 else { throw .chainLength }
        guard let presented = Data(base64Encoded: chain[0]) else { throw .certificateEncoding }
        guard Array(presented) == der else { throw .untrustedChain }
        guard ES256.isValid(signature: parsed.signature, for: parsed.signingInput, key: key) else { throw .signature }
        guard payload.environmentRaw == AppStoreEnvironment.xcode.rawValue else { throw .environment }
        return payload
    }
}
