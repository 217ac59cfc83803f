import SwiftASN1

/// The envelope of a PKCS#7 `SignedData` (RFC 5652), walked once for both what an app
/// receipt says (`AppReceiptContents`) and how it is signed (`AppReceiptContainer`):
/// ContentInfo { pkcs7-signedData, [0] SignedData { version, digestAlgorithms,
/// encapContentInfo { type, [0] OCTET STRING }, certificates [0] OPTIONAL,
/// crls [1] OPTIONAL, signerInfos } }. Nothing here is checked beyond its shape.
public struct PKCS7SignedData {
    /// `pkcs7-signedData`.
    private static let signedData: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]

    /// The encapsulated content's bytes (its OCTET STRING's).
    public let content: ArraySlice<UInt8>
    /// The fields after encapContentInfo, in order: certificates, CRLs, signerInfos.
    public let trailingFields: [ASN1Node]

    /// Walks the envelope of `bytes` (BER); throws when it is not PKCS#7 signed data with content.
    public init(parsing bytes: [UInt8]) throws {
        (content, trailingFields) = try BER.sequence(BER.parse(bytes), identifier: .sequence) { nodes in
            guard try ASN1ObjectIdentifier(berEncoded: &nodes) == Self.signedData else {
                throw ASN1Error.invalidASN1Object(reason: "not PKCS#7 signed data")
            }
            return try BER.explicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { signed in
                try BER.sequence(signed, identifier: .sequence) { fields in
                    _ = fields.next()  // version
                    _ = fields.next()  // digestAlgorithms
                    guard let encapsulated = fields.next() else { throw ASN1Error.invalidASN1Object(reason: "no content") }
                    var trailing: [ASN1Node] = []
                    while let field = fields.next() { trailing.append(field) }
                    let content = try BER.sequence(encapsulated, identifier: .sequence) { inner in
                        _ = try ASN1ObjectIdentifier(berEncoded: &inner)
                        return try BER.explicitlyTagged(&inner, tagNumber: 0, tagClass: .contextSpecific) {
                            try ASN1OctetString(berEncoded: $0)
                        }
                    }
                    return (content.bytes, trailing)
                }
            }
        }
    }
}
