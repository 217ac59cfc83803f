import Crypto
import Foundation
import SwiftASN1
import X509

/// The simulator's stand-in for Apple's signing PKI: root CA → intermediate carrying the
/// WWDR marker → leaf carrying the App Store signing marker, all P-256 with ECDSA SHA-256.
///
/// subscriptiond trusts the root through `APPSTORE_ROOT_CERTIFICATES`, so the chain must keep
/// the same markers and path rules as Apple's (APPSTORE.md, "version 2").
public struct SimPKI: Sendable {
    /// OID 1.2.840.113635.100.6.2.1, which Apple's WWDR intermediate carries.
    public static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    /// OID 1.2.840.113635.100.6.11.1, which Apple's signing leaf carries.
    public static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    /// How far back certificates start: scenarios replay years of history with past
    /// `signedDate`s, which a verifier may use as the validation time.
    public static let backdating: TimeInterval = 10 * 365 * 86_400
    /// Lifetime of the root and the intermediate from their creation.
    public static let caLifetime: TimeInterval = 20 * 365 * 86_400
    /// Lifetime of the leaf from its creation.
    public static let leafLifetime: TimeInterval = 2 * 365 * 86_400

    /// The self-signed root.
    public let root: SimCertificate
    /// The intermediate, issued by the root.
    public let intermediate: SimCertificate
    /// The signing leaf, issued by the intermediate.
    public let leaf: SimCertificate

    /// The three parts.
    init(root: SimCertificate, intermediate: SimCertificate, leaf: SimCertificate) {
        self.root = root
        self.intermediate = intermediate
        self.leaf = leaf
    }

    /// `x5c` as Apple sends it: leaf, intermediate, root.
    public var x5c: [String] {
        [leaf.base64, intermediate.base64, root.base64]
    }

    /// A fresh PKI created at `now`.
    public static func generate(now: Date = Date()) throws -> SimPKI {
        let rootKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName {
            OrganizationName("appstore-sim")
            CommonName("appstore-sim Root CA")
        }
        let root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey),
            notValidBefore: now - backdating, notValidAfter: now + caLifetime,
            issuer: rootName, subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(rootKey)
        )
        let intermediateKey = P256.Signing.PrivateKey()
        var extensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        }
        // The marker's value does not matter to verifiers; ASN.1 NULL, like the test PKI.
        try extensions.append(.init(oid: intermediateMarker, critical: false, value: [0x05, 0x00]))
        let intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(intermediateKey.publicKey),
            notValidBefore: now - backdating, notValidAfter: now + caLifetime,
            issuer: rootName, subject: try intermediateName(),
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions, issuerPrivateKey: .init(rootKey)
        )
        let issuer = try SimCertificate(certificate: intermediate, key: intermediateKey)
        return SimPKI(
            root: try SimCertificate(certificate: root, key: rootKey),
            intermediate: issuer,
            leaf: try issueLeaf(by: issuer, now: now)
        )
    }

    /// This PKI with a new leaf from the same intermediate (same root), created at `now`.
    public func renewingLeaf(now: Date = Date()) throws -> SimPKI {
        SimPKI(root: root, intermediate: intermediate, leaf: try Self.issueLeaf(by: intermediate, now: now))
    }

    /// A signing leaf issued by `issuer`.
    static func issueLeaf(by issuer: SimCertificate, now: Date) throws -> SimCertificate {
        let key = P256.Signing.PrivateKey()
        var extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
        }
        try extensions.append(.init(oid: leafMarker, critical: false, value: [0x05, 0x00]))
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: now - backdating, notValidAfter: now + leafLifetime,
            issuer: issuer.certificate.subject,
            subject: try DistinguishedName {
                OrganizationName("appstore-sim")
                CommonName("appstore-sim App Store Signing")
            },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions, issuerPrivateKey: .init(issuer.key)
        )
        return try SimCertificate(certificate: leaf, key: key)
    }

    private static func intermediateName() throws -> DistinguishedName {
        try DistinguishedName {
            OrganizationName("appstore-sim")
            CommonName("appstore-sim WWDR CA")
        }
    }
}
