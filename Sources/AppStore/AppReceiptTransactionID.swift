import Foundation
import SwiftASN1

/// Reads a transaction id out of an app receipt (the base64 `receipt_data` that StoreKit 1
/// apps send) without verifying it — only as a key for the App Store Server API, as Apple's
/// own library does. Nothing read here is trusted: Apple's signed answer to the lookup is.
///
/// The receipt is a PKCS#7 `SignedData` (BER) whose content is a SET of receipt attributes
/// `SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`. Attribute 17 is one
/// in-app purchase, itself a SET of attributes; in it, 1703 is the transaction id and 1705
/// the original transaction id, each a UTF8String inside the OCTET STRING. Any transaction of
/// a customer identifies them to the API.
public enum AppReceiptTransactionID {
    /// `pkcs7-signedData` (RFC 5652).
    private static let signedData: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
    private static let inAppPurchase = 17
    private static let transactionID = 1703
    private static let originalTransactionID = 1705

    /// The first in-app purchase's transaction id (else its original transaction id); nil
    /// when the receipt holds no in-app purchase. Throws when `receipt` is not base64 of a
    /// PKCS#7 app receipt.
    public static func extract(fromBase64 receipt: String) throws(AppReceiptFormatError) -> String? {
        let compact = receipt.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: compact), !data.isEmpty else {
            throw AppReceiptFormatError("receipt_data is not base64")
        }
        let payload: ArraySlice<UInt8>
        do {
            payload = try signedContent(of: BER.parse(Array(data)))
        } catch {
            throw AppReceiptFormatError("receipt_data is not an App Store receipt (a PKCS#7 container)")
        }
        do {
            for purchase in try attributes(BER.parse(payload)) where purchase.type == inAppPurchase {
                let fields = try attributes(BER.parse(purchase.value))
                let id = try fields.first { $0.type == transactionID }.map(utf8)
                    ?? fields.first { $0.type == originalTransactionID }.map(utf8)
                if let id, !id.isEmpty { return id }
            }
            return nil
        } catch {
            throw AppReceiptFormatError("receipt_data is not an App Store receipt (its content is not a set of receipt attributes)")
        }
    }

    /// ContentInfo { signedData, [0] SignedData { version, digestAlgorithms,
    /// encapContentInfo { type, [0] OCTET STRING }, … } }: the OCTET STRING's bytes.
    private static func signedContent(of root: ASN1Node) throws -> ArraySlice<UInt8> {
        try BER.sequence(root, identifier: .sequence) { nodes in
            guard try ASN1ObjectIdentifier(berEncoded: &nodes) == signedData else {
                throw ASN1Error.invalidASN1Object(reason: "not PKCS#7 signed data")
            }
            let content = try BER.explicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { signed in
                try BER.sequence(signed, identifier: .sequence) { fields in
                    _ = fields.next()  // version
                    _ = fields.next()  // digestAlgorithms
                    guard let encapsulated = fields.next() else { throw ASN1Error.invalidASN1Object(reason: "no content") }
                    while fields.next() != nil {}  // certificates, CRLs, signerInfos: not read, not trusted
                    return try BER.sequence(encapsulated, identifier: .sequence) { inner in
                        _ = try ASN1ObjectIdentifier(berEncoded: &inner)
                        return try BER.explicitlyTagged(&inner, tagNumber: 0, tagClass: .contextSpecific) { try ASN1OctetString(berEncoded: $0) }
                    }
                }
            }
            return content.bytes
        }
    }

    private struct Attribute {
        var type: Int
        var value: ArraySlice<UInt8>
    }

    /// SET OF SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }.
    private static func attributes(_ node: ASN1Node) throws -> [Attribute] {
        try BER.set(node, identifier: .set) { nodes in
            var attributes: [Attribute] = []
            while let element = nodes.next() {
                attributes.append(try BER.sequence(element, identifier: .sequence) { fields in
                    let type = try Int(berEncoded: &fields)
                    _ = fields.next()  // version
                    let value = try ASN1OctetString(berEncoded: &fields)
                    return Attribute(type: type, value: value.bytes)
                })
            }
            return attributes
        }
    }

    /// An attribute value holding a UTF8String.
    private static func utf8(_ attribute: Attribute) throws -> String {
        String(try ASN1UTF8String(berEncoded: BER.parse(attribute.value)))
    }
}

/// `receipt_data` that is not an app receipt: the sentence says how.
public struct AppReceiptFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
