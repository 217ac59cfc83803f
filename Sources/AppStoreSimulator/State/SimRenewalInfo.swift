import Foundation

/// What happens at the next renewal: a `pending_renewal_info` entry.
public struct SimRenewalInfo: Sendable, Hashable {
    /// `original_transaction_id`.
    public var originalTransactionID: String
    /// `product_id`: the product of the current period.
    public var productID: String
    /// `auto_renew_product_id`: the product the next period renews to.
    public var autoRenewProductID: String
    /// `auto_renew_status`.
    public var autoRenewStatus: Bool
    /// When `autoRenewStatus` last changed (the purchase, at first).
    public var autoRenewStatusChangeDate: Date
    /// `expiration_intent`, once expired.
    public var expirationIntent: SimExpirationIntent?
    /// `is_in_billing_retry_period`.
    public var isInBillingRetryPeriod: Bool = false
    /// `grace_period_expires_date`, while Apple retries inside a grace period.
    public var gracePeriodExpiresDate: Date?

    /// Renewal info from its parts: by default renewing into `productID`, not retrying.
    public init(
        originalTransactionID: String,
        productID: String,
        autoRenewProductID: String? = nil,
        autoRenewStatus: Bool = true,
        autoRenewStatusChangeDate: Date,
        expirationIntent: SimExpirationIntent? = nil,
        isInBillingRetryPeriod: Bool = false,
        gracePeriodExpiresDate: Date? = nil
    ) {
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.autoRenewProductID = autoRenewProductID ?? productID
        self.autoRenewStatus = autoRenewStatus
        self.autoRenewStatusChangeDate = autoRenewStatusChangeDate
        self.expirationIntent = expirationIntent
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
    }
}
