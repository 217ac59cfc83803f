import AppStore
import Foundation

extension VerifiedNotificationV2 {
    /// A notification verified before it was stored, read back without checking its
    /// signatures again: a v2 notification's three signatures are checked once, at intake.
    ///
    /// No second integrity check, on purpose: only intake and the notification history
    /// fetch write `signedPayload`s to the inbox, and both verify first; the database is
    /// inside the trust boundary (whoever can write a stored payload can write the
    /// subscriptions it would change), so verifying again would cost three ES256 checks
    /// (and, with online checks, OCSP questions) per notification and guard nothing.
    /// Throws `.malformed` kinds when a stored part does not decode.
    public static func readingStored(_ signedPayload: String) throws(SignedPayloadError) -> VerifiedNotificationV2 {
        let payload = try CompactJWS.decodedPayload(of: signedPayload, as: NotificationV2Payload.self)
        let transaction = try payload.data?.signedTransactionInfo.map { jws throws(SignedPayloadError) in
            try CompactJWS.decodedPayload(of: jws, as: JWSTransactionPayload.self)
        }
        let renewalInfo = try payload.data?.signedRenewalInfo.map { jws throws(SignedPayloadError) in
            try CompactJWS.decodedPayload(of: jws, as: JWSRenewalInfoPayload.self)
        }
        let appTransaction = try payload.appData?.signedAppTransactionInfo.map { jws throws(SignedPayloadError) in
            try CompactJWS.decodedPayload(of: jws, as: AppTransactionPayload.self)
        }
        return VerifiedNotificationV2(payload: payload, transaction: transaction, renewalInfo: renewalInfo, appTransaction: appTransaction)
    }
}
