import AppStore
import SwiftASN1

/// An App Store receipt's PKCS#7 container, made acceptable to swift-certificates' CMS
/// verification. Apple's receipts differ from what it accepts in two ways that carry no
/// meaning:
/// - the signer names its algorithm the PKCS #1 way, `rsaEncryption` with the digest (SHA-1
///   or SHA-256) given separately as its `digestAlgorithm` (RFC 5652, section 5.3, allows
///   it), where swift-certificates wants the combined identifier (`sha1WithRSAEncryption`, …);
/// - the certificates SET lists the chain leaf first instead of in DER's sorted order.
///
/// Both are rewritten in place: the identifier is replaced by one of the same length (every
/// identifier involved is a nine-byte OID; parameters are kept as sent) and the certificates
/// are reordered, so no length anywhere changes. The nodes are located with swift-asn1's
/// parser. A signature covers the content (or the signed attributes), never the identifier
/// or the certificates' order, so neither rewrite can make a bad signature good.
enum AppReceiptContainer {
    private static let rsaEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 1, 1]
    private static let combined: [ASN1ObjectIdentifier: ASN1ObjectIdentifier] = [
        [1, 3, 14, 3, 2, 26]: [1, 2, 840, 113_549, 1, 1, 5],  // SHA-1 → sha1WithRSAEncryption
        [2, 16, 840, 1, 101, 3, 4, 2, 1]: [1, 2, 840, 113_549, 1, 1, 11],  // SHA-256
        [2, 16, 840, 1, 101, 3, 4, 2, 2]: [1, 2, 840, 113_549, 1, 1, 12],  // SHA-384
        [2, 16, 840, 1, 101, 3, 4, 2, 3]: [1, 2, 840, 113_549, 1, 1, 13],  // SHA-512
    ]

    /// The parts of the container that are rewritten.
    private struct Located {
        var certificates: ASN1Node?
        var digest: ASN1ObjectIdentifier
        var signatureAlgorithm: ASN1Node
    }

    /// `container` with its certificates in DER order and its one signer's `rsaEncryption`
    /// renamed to the combined identifier (left as is when it already names one, as an
    /// ECDSA signer does).
    static func normalized(_ container: [UInt8]) throws(AppReceiptContainerError) -> [UInt8] {
        let located: Located
        do {
            located = try locate(in: PKCS7SignedData(parsing: container))
        } catch let error as AppReceiptContainerError {
            throw error
        } catch {
            throw AppReceiptContainerError("not a PKCS#7 signed-data container")
        }
        var result = container
        if let certificates = located.certificates, case .constructed(let nodes) = certificates.content {
            let elements = Array(nodes)
            if let first = elements.first, let last = elements.last {
                let sorted = elements.map(\.encodedBytes).sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 }
                result.replaceSubrange(first.encodedBytes.startIndex..<last.encodedBytes.endIndex, with: sorted)
            }
        }
        if let renamed = try renamedAlgorithm(located) {
            let range = located.signatureAlgorithm.encodedBytes.startIndex..<located.signatureAlgorithm.encodedBytes.endIndex
            guard renamed.count == range.count else { throw AppReceiptContainerError("the signature algorithm cannot be renamed in place") }
            result.replaceSubrange(range, with: renamed)
        }
        return result
    }

    /// The combined identifier's encoding, when the signer names `rsaEncryption`.
    private static func renamedAlgorithm(_ located: Located) throws(AppReceiptContainerError) -> [UInt8]? {
        guard let identifier = try? AlgorithmIdentifierParts(located.signatureAlgorithm), identifier.oid == rsaEncryption else {
            return nil
        }
        guard let renamed = combined[located.digest] else { throw AppReceiptContainerError("an RSA signature with an unsupported digest") }
        var serializer = DER.Serializer()
        do {
            try serializer.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(renamed)
                if let parameters = identifier.parameters { coder.serializeRawBytes(parameters) }
            }
        } catch {
            throw AppReceiptContainerError("the signature algorithm cannot be renamed")
        }
        return serializer.serializedBytes
    }

    /// The certificates and the one signer of the container's `SignedData`.
    private static func locate(in envelope: PKCS7SignedData) throws -> Located {
        let certificates = envelope.trailingFields.first { $0.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) }
        guard let signerInfos = envelope.trailingFields.last else { throw AppReceiptContainerError("no signer") }
        let (digest, algorithm) = try signer(in: signerInfos)
        return Located(certificates: certificates, digest: digest, signatureAlgorithm: algorithm)
    }

    /// SignerInfos holding exactly one SignerInfo { version, sid, digestAlgorithm,
    /// [0] signedAttrs OPTIONAL, signatureAlgorithm, signature, … }: its digest algorithm's
    /// OID and its signatureAlgorithm node.
    private static func signer(in signerInfos: ASN1Node) throws -> (ASN1ObjectIdentifier, ASN1Node) {
        try BER.set(signerInfos, identifier: .set) { infos in
            guard let info = infos.next(), infos.next() == nil else { throw AppReceiptContainerError("not exactly one signer") }
            return try BER.sequence(info, identifier: .sequence) { parts in
                _ = parts.next()  // version
                _ = parts.next()  // sid
                guard let digestNode = parts.next(), var algorithm = parts.next() else {
                    throw AppReceiptContainerError("a signer without algorithms")
                }
                if algorithm.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {  // signedAttrs
                    guard let after = parts.next() else { throw AppReceiptContainerError("a signer without a signature algorithm") }
                    algorithm = after
                }
                while parts.next() != nil {}  // signature, unsignedAttrs
                return (try AlgorithmIdentifierParts(digestNode).oid, algorithm)
            }
        }
    }

    /// AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL }.
    private struct AlgorithmIdentifierParts {
        let oid: ASN1ObjectIdentifier
        let parameters: ArraySlice<UInt8>?

        init(_ node: ASN1Node) throws {
            (oid, parameters) = try BER.sequence(node, identifier: .sequence) { nodes in
                (try ASN1ObjectIdentifier(berEncoded: &nodes), nodes.next()?.encodedBytes)
            }
        }
    }
}

/// A container that is not the PKCS#7 shape an App Store receipt has.
struct AppReceiptContainerError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
