import AppStore
import Foundation
import SwiftASN1
@_spi(CMS) @_spi(FixedExpiryValidationTime) import X509

/// Checks an app receipt's PKCS#7 signature: the content is signed by a leaf that chains,
/// through an intermediate with Apple's WWDR marker, to a configured receipt root (Apple
/// Root CA in production), and the leaf carries the receipt-signing marker — the same
/// shape rules as signed payloads (`AppStoreOIDPolicy`). swift-certificates' CMS support
/// checks the signature and the path; nothing here verifies a signature by itself.
///
/// The chain is judged at the receipt's creation date (its leaf may have expired since, as
/// Apple's receipt certificates did in 2023), never later than now: the date is inside
/// the signed content, so a forged one fails the signature anyway.
public struct AppReceiptVerifier: Sendable {
    private let roots: CertificateStore

    /// Trusts exactly `roots`.
    public init(roots: AppleRootCertificates) {
        self.roots = CertificateStore(roots.certificates)
    }

    /// `receipt`'s contents, once its signature verifies to a configured root.
    public func verify(_ receipt: AppReceiptContents, now: Date = Date()) async throws(AppReceiptProofError) -> AppReceiptContents {
        let signed: [UInt8]
        do {
            signed = try AppReceiptContainer.normalized(receipt.bytes)
        } catch {
            throw .unsigned("the receipt carries no signature this server can check (\(error.description))")
        }
        let validationTime = min(receipt.createdAt ?? now, now)
        let result = await CMS.isValidAttachedSignature(signatureBytes: signed, trustRoots: roots) {
            RFC5280Policy(fixedExpiryValidationTime: validationTime)
            AppStoreOIDPolicy()
        }
        switch result {
        case .success:
            return receipt
        case .failure(.unableToValidateSigner):
            throw .untrusted(
                "the receipt's signing certificate does not chain to a configured receipt root (APPSTORE_RECEIPT_ROOT_CERTIFICATES)")
        case .failure:
            throw .unsigned("the receipt's PKCS#7 signature does not verify")
        }
    }
}

/// Why a receipt is not Apple's word.
public enum AppReceiptProofError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No signature, or one that does not match the content.
    case unsigned(String)
    /// Signed, but not by a certificate that chains to a configured root with Apple's markers.
    case untrusted(String)

    public var description: String {
        switch self {
        case .unsigned(let message), .untrusted(let message): message
        }
    }
}
