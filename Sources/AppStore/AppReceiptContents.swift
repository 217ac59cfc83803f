import Foundation
import SwiftASN1

/// What an app receipt (the base64 `receipt_data` that StoreKit 1 apps send) says, read out
/// of its PKCS#7 container. Reading is not believing: only a receipt whose signature
/// verifies to Apple's receipt root (`AppReceiptVerifier`) may be acted on.
///
/// The receipt is a PKCS#7 `SignedData` (BER) whose content is a SET of receipt attributes
/// `SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`. Attribute 2 is the bundle
/// id (UTF8String), 12 the creation date (IA5String, RFC 3339), 17 one in-app purchase,
/// itself a SET of attributes in which 1703 is the transaction id and 1705 the original
/// transaction id, each a UTF8String inside the OCTET STRING.
public struct AppReceiptContents: Sendable, Equatable {
    /// One in-app purchase of the receipt.
    public struct Purchase: Sendable, Equatable {
        public let transactionID: String?
        public let originalTransactionID: String?
    }

    /// The receipt's DER (or BER) bytes, as sent.
    public let bytes: [UInt8]
    /// The app the receipt is for.
    public let bundleID: String?
    /// When the App Store made the receipt.
    public let createdAt: Date?
    /// Its in-app purchases, in receipt order.
    public let purchases: [Purchase]

    /// The first purchase's transaction id (else its original transaction id): any
    /// transaction of a customer identifies them to the App Store Server API.
    public var firstTransactionID: String? {
        purchases.lazy.compactMap { purchase in
            [purchase.transactionID, purchase.originalTransactionID].lazy.compactMap { $0 }.first { !$0.isEmpty }
        }.first
    }

    private static let bundleIDType = 2
    private static let creationDateType = 12
    private static let inAppPurchaseType = 17
    private static let transactionIDType = 1703
    private static let originalTransactionIDType = 1705

    /// Reads base64 `receipt`; throws when it is not base64 of a PKCS#7 app receipt.
    public init(base64 receipt: String) throws(AppReceiptFormatError) {
        let compact = receipt.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: compact), !data.isEmpty else {
            throw AppReceiptFormatError("receipt_data is not base64")
        }
        try self.init(bytes: Array(data))
    }

    /// Reads the receipt's bytes.
    public init(bytes: [UInt8]) throws(AppReceiptFormatError) {
        let payload: ArraySlice<UInt8>
        do {
            payload = try PKCS7SignedData(parsing: bytes).content
        } catch {
            throw AppReceiptFormatError("receipt_data is not an App Store receipt (a PKCS#7 container)")
        }
        var bundleID: String?
        var createdAt: Date?
        var purchases: [Purchase] = []
        do {
            for attribute in try Self.attributes(BER.parse(payload)) {
                switch attribute.type {
                case Self.bundleIDType:
                    bundleID = try Self.utf8(attribute)
                case Self.creationDateType:
                    createdAt = try? Date.ISO8601FormatStyle().parse(String(ASN1IA5String(berEncoded: BER.parse(attribute.value))))
                case Self.inAppPurchaseType:
                    let fields = try Self.attributes(BER.parse(attribute.value))
                    purchases.append(
                        Purchase(
                            transactionID: try fields.first { $0.type == Self.transactionIDType }.map(Self.utf8),
                            originalTransactionID: try fields.first { $0.type == Self.originalTransactionIDType }.map(Self.utf8)))
                default:
                    continue
                }
            }
        } catch {
            throw AppReceiptFormatError("receipt_data is not an App Store receipt (its content is not a set of receipt attributes)")
        }
        self.bytes = bytes
        self.bundleID = bundleID
        self.createdAt = createdAt
        self.purchases = purchases
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
                attributes.append(
                    try BER.sequence(element, identifier: .sequence) { fields in
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
