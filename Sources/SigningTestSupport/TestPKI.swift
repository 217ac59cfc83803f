import Crypto
import Foundation
import SwiftASN1
import X509

/// A throwaway App Store-shaped PKI: root CA → intermediate (WWDR marker) → leaf
/// (receipt-signing marker), all P-256. Each option breaks one property for the tamper tests.
///
/// Kept free of test-framework imports so it can later serve the simulator.
public struct TestPKI: Sendable {
    /// One issued certificate with its key.
    public struct Issued: Sendable {
        public let certificate: Certificate
        public let key: P256.Signing.PrivateKey

        /// The DER bytes.
        public var der: [UInt8] {
            var serializer = DER.Serializer()
            // Serializing a certificate we just built cannot fail; an empty array would fail the test visibly.
            guard (try? serializer.serialize(certificate)) != nil else { return [] }
            return serializer.serializedBytes
        }

        /// Standard base64 of the DER, as `x5c` carries it.
        public var base64: String { Data(der).base64EncodedString() }

        /// The certificate as PEM (empty if it cannot be serialized, which fails a test visibly).
        public var pem: String { (try? certificate.serializeAsPEM().pemString) ?? "" }

        /// The private key as PKCS #8 PEM.
        public var keyPEM: String { key.pemRepresentation }

        /// The serial number in uppercase hex without leading zero bytes (openssl's spelling).
        public var serialHex: String {
            certificate.serialNumber.bytes.drop { $0 == 0 }.map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
        }
    }

    /// What to get wrong on purpose.
    public struct Options: Sendable {
        public var leafMarker = true
        public var intermediateMarker = true
        public var notBefore = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01
        public var notAfter = Date(timeIntervalSince1970: 1_893_456_000)  // 2030-01-01
        public var leafNotAfter: Date?
        public var name = "Test"
        /// The OCSP responder the leaf names (Authority Information Access); nil names none.
        public var leafOCSPURL: String?
        /// The OCSP responder the intermediate names; nil names none.
        public var intermediateOCSPURL: String?

        /// Options; the defaults make every property valid (markers present, 2024–2030, no OCSP responder).
        public init(
            leafMarker: Bool = true, intermediateMarker: Bool = true,
            notBefore: Date = Date(timeIntervalSince1970: 1_704_067_200), notAfter: Date = Date(timeIntervalSince1970: 1_893_456_000),
            leafNotAfter: Date? = nil, name: String = "Test", leafOCSPURL: String? = nil, intermediateOCSPURL: String? = nil
        ) {
            self.leafOCSPURL = leafOCSPURL
            self.intermediateOCSPURL = intermediateOCSPURL
            self.leafMarker = leafMarker
            self.intermediateMarker = intermediateMarker
            self.notBefore = notBefore
            self.notAfter = notAfter
            self.leafNotAfter = leafNotAfter
            self.name = name
        }
    }

    public static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    public static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]

    public let root: Issued
    public let intermediate: Issued
    public let leaf: Issued

    /// `x5c` as Apple sends it: leaf, intermediate, root.
    public var x5c: [String] { [leaf.base64, intermediate.base64, root.base64] }

    public init(_ options: Options = Options()) throws {
        let rootKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName("\(options.name) Root CA") }
        let root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey),
            notValidBefore: options.notBefore, notValidAfter: options.notAfter,
            issuer: rootName, subject: rootName,
            extensions: Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(rootKey)
        )

        let intermediateKey = P256.Signing.PrivateKey()
        let intermediateName = try DistinguishedName { CommonName("\(options.name) WWDR CA") }
        var intermediateExtensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(KeyUsage(keyCertSign: true, cRLSign: true))
        }
        if options.intermediateMarker {
            try intermediateExtensions.append(.init(oid: Self.intermediateMarker, critical: false, value: [0x05, 0x00]))
        }
        if let url = options.intermediateOCSPURL {
            try intermediateExtensions.append(Self.ocspResponder(url))
        }
        let intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(intermediateKey.publicKey),
            notValidBefore: options.notBefore, notValidAfter: options.notAfter,
            issuer: rootName, subject: intermediateName,
            extensions: intermediateExtensions, issuerPrivateKey: .init(rootKey)
        )

        let leafKey = P256.Signing.PrivateKey()
        var leafExtensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
        }
        if options.leafMarker {
            try leafExtensions.append(.init(oid: Self.leafMarker, critical: false, value: [0x05, 0x00]))
        }
        if let url = options.leafOCSPURL {
            try leafExtensions.append(Self.ocspResponder(url))
        }
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey),
            notValidBefore: options.notBefore, notValidAfter: options.leafNotAfter ?? options.notAfter,
            issuer: intermediateName,
            subject: try DistinguishedName { CommonName("\(options.name) Receipt Signing") },
            extensions: leafExtensions, issuerPrivateKey: .init(intermediateKey)
        )
        self.root = Issued(certificate: root, key: rootKey)
        self.intermediate = Issued(certificate: intermediate, key: intermediateKey)
        self.leaf = Issued(certificate: leaf, key: leafKey)
    }

    /// An Authority Information Access extension naming one OCSP responder.
    private static func ocspResponder(_ url: String) throws -> Certificate.Extension {
        let access = AuthorityInformationAccess([.init(method: .ocspServer, location: .uniformResourceIdentifier(url))])
        return try Certificate.Extension(access, critical: false)
    }
}
