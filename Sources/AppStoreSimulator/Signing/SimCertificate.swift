import Crypto
import Foundation
import SwiftASN1
import X509

/// One certificate of the simulator's PKI with its private key.
public struct SimCertificate: Sendable {
    /// The certificate.
    public let certificate: Certificate
    /// Its P-256 private key.
    public let key: P256.Signing.PrivateKey
    /// The DER bytes, serialized once.
    public let der: [UInt8]

    /// Wraps `certificate` and `key`, serializing the certificate.
    init(certificate: Certificate, key: P256.Signing.PrivateKey) throws {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        self.certificate = certificate
        self.key = key
        self.der = serializer.serializedBytes
    }

    /// Standard base64 of the DER, as `x5c` carries it.
    public var base64: String {
        Data(der).base64EncodedString()
    }

    /// The certificate as a `-----BEGIN CERTIFICATE-----` PEM block.
    public var pem: String {
        PEMDocument(type: "CERTIFICATE", derBytes: der).pemString
    }
}
