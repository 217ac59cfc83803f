import AppStore

/// A version 2 notification whose outer JWS and every nested JWS verified.
public struct VerifiedNotificationV2: Sendable, Hashable {
    /// The notification payload.
    public let payload: NotificationV2Payload
    /// The decoded `data.signedTransactionInfo`, when present.
    public let transaction: JWSTransactionPayload?
    /// The decoded `data.signedRenewalInfo`, when present.
    public let renewalInfo: JWSRenewalInfoPayload?
    /// The decoded `appData.signedAppTransactionInfo` of an app-level notification (RESCIND_CONSENT).
    public let appTransaction: AppTransactionPayload?

    /// Bundles the verified parts.
    public init(
        payload: NotificationV2Payload, transaction: JWSTransactionPayload?, renewalInfo: JWSRenewalInfoPayload?,
        appTransaction: AppTransactionPayload? = nil
    ) {
        self.payload = payload
        self.transaction = transaction
        self.renewalInfo = renewalInfo
        self.appTransaction = appTransaction
    }
}
