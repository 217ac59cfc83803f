import Crypto
import Foundation
import SwiftASN1
@_spi(CMS) import X509

/// Builds app receipts shaped like the App Store's (a PKCS#7 `SignedData` whose content is
/// a SET of receipt attributes). `base64` and `der` carry no certificates or signature (a
/// forgery, or a receipt only read); `signedBase64` is signed the way Apple signs, by a leaf
/// with the receipt-signing marker, through swift-certificates' CMS support.
public enum TestAppReceipt {
    /// The certificate and key a receipt is signed with, and the intermediates it carries.
    public struct Signer: Sendable {
        public let leaf: Certificate
        public let key: P256.Signing.PrivateKey
        public let intermediates: [Certificate]

        public init(leaf: Certificate, key: P256.Signing.PrivateKey, intermediates: [Certificate]) {
            self.leaf = leaf
            self.key = key
            self.intermediates = intermediates
        }

        /// The leaf and intermediate of `pki`.
        public init(_ pki: TestPKI) {
            self.init(leaf: pki.leaf.certificate, key: pki.leaf.key, intermediates: [pki.intermediate.certificate])
        }
    }

    /// Base64 of a receipt for `bundleID` holding `purchases`, made at `createdAt`, with an
    /// attached signature by `signer`.
    public static func signedBase64(bundleID: String, purchases: [Purchase], createdAt: Date = Date(), by signer: Signer) throws -> String {
        let content = try attributes(bundleID: bundleID, purchases: purchases, createdAt: createdAt)
        let signed = try CMS.sign(
            content, additionalIntermediateCertificates: signer.intermediates, certificate: signer.leaf,
            privateKey: Certificate.PrivateKey(signer.key), detached: false)
        return Data(signed).base64EncodedString()
    }

    /// One in-app purchase inside the receipt.
    public struct Purchase: Sendable {
        public var transactionID: String?
        public var originalTransactionID: String?

        public init(transactionID: String?, originalTransactionID: String?) {
            self.transactionID = transactionID
            self.originalTransactionID = originalTransactionID
        }
    }

    /// Base64 of a receipt for `bundleID` holding `purchases` (possibly none).
    public static func base64(bundleID: String, purchases: [Purchase]) throws -> String {
        Data(try der(bundleID: bundleID, purchases: purchases)).base64EncodedString()
    }

    /// The DER bytes of that receipt.
    public static func der(bundleID: String, purchases: [Purchase]) throws -> [UInt8] {
        try container(content: attributes(bundleID: bundleID, purchases: purchases, createdAt: nil))
    }

    /// The receipt attributes: bundle id, version, creation date, one attribute 17 a purchase.
    private static func attributes(bundleID: String, purchases: [Purchase], createdAt: Date?) throws -> [UInt8] {
        var inApp: [[UInt8]] = []
        for purchase in purchases {
            var fields: [[UInt8]] = []
            if let id = purchase.transactionID { fields.append(try attribute(1703, utf8: id)) }
            if let id = purchase.originalTransactionID { fields.append(try attribute(1705, utf8: id)) }
            fields.append(try attribute(1701, utf8: "1"))  // quantity-like filler the reader must skip
            inApp.append(try attribute(17, value: set(fields)))
        }
        var header = [try attribute(2, utf8: bundleID), try attribute(3, utf8: "1.0")]
        if let createdAt {
            var serializer = DER.Serializer()
            try serializer.serialize(try ASN1IA5String(createdAt.formatted(Date.ISO8601FormatStyle())))
            header.append(try attribute(12, value: serializer.serializedBytes))
        }
        return try set(header + inApp)
    }

    /// ContentInfo { pkcs7-signedData, [0] SignedData { 1, {}, { pkcs7-data, [0] content }, {} } }.
    public static func container(content: [UInt8]) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(ASN1ObjectIdentifier(elements: [1, 2, 840, 113_549, 1, 7, 2] as [UInt]))
            try coder.serialize(explicitlyTaggedWithTagNumber: 0, tagClass: .contextSpecific) { coder in
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.serialize(1)
                    coder.appendConstructedNode(identifier: .set) { _ in }
                    try coder.appendConstructedNode(identifier: .sequence) { coder in
                        try coder.serialize(ASN1ObjectIdentifier(elements: [1, 2, 840, 113_549, 1, 7, 1] as [UInt]))
                        try coder.serialize(explicitlyTaggedWithTagNumber: 0, tagClass: .contextSpecific) { coder in
                            try coder.serialize(ASN1OctetString(contentBytes: content[...]))
                        }
                    }
                    coder.appendConstructedNode(identifier: .set) { _ in }
                }
            }
        }
        return serializer.serializedBytes
    }

    private static func attribute(_ type: Int, utf8 text: String) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(ASN1UTF8String(contentBytes: Array(text.utf8)[...]))
        return try attribute(type, value: serializer.serializedBytes)
    }

    private static func attribute(_ type: Int, value: [UInt8]) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(type)
            try coder.serialize(1)
            try coder.serialize(ASN1OctetString(contentBytes: value[...]))
        }
        return serializer.serializedBytes
    }

    private static func set(_ elements: [[UInt8]]) throws -> [UInt8] {
        var serializer = DER.Serializer()
        serializer.appendConstructedNode(identifier: .set) { coder in
            for element in elements { coder.serializeRawBytes(element) }
        }
        return serializer.serializedBytes
    }
}
