import Foundation

/// One `pending_renewal_info[]` entry: what Apple will do at the next renewal.
public struct PendingRenewalInfo: Sendable, Decodable, Hashable {
    /// `original_transaction_id`: the subscription this entry describes.
    public var originalTransactionID: String?
    /// `product_id`: the product of the current period.
    public var productID: String?
    /// `auto_renew_product_id`: the product the next period will renew to.
    public var autoRenewProductID: String?
    /// `auto_renew_status`: `true` will renew, `false` auto-renew is off.
    public var autoRenewStatus: Bool?
    /// `expiration_intent` exactly as Apple sent it (`"1"`…`"5"`), kept for codes added later.
    public var expirationIntentRaw: String?
    /// `is_in_billing_retry_period`: Apple is still trying to charge for renewal.
    public var isInBillingRetryPeriod: Bool?
    /// `grace_period_expires_date_ms`: the customer stays entitled until then while Apple retries.
    public var gracePeriodExpiresDate: Date?
    /// `price_consent_status`: `"1"` agreed to a price increase, `"0"` not yet.
    public var priceConsentStatus: String?

    /// The typed view of `expirationIntentRaw`.
    public var expirationIntent: ExpirationIntent? {
        expirationIntentRaw.flatMap(ExpirationIntent.init(appleCode:))
    }

    /// Builds an entry in code (tests, the simulator); unspecified fields are absent.
    public init(
        originalTransactionID: String? = nil,
        productID: String? = nil,
        autoRenewProductID: String? = nil,
        autoRenewStatus: Bool? = nil,
        expirationIntentRaw: String? = nil,
        isInBillingRetryPeriod: Bool? = nil,
        gracePeriodExpiresDate: Date? = nil,
        priceConsentStatus: String? = nil
    ) {
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.autoRenewProductID = autoRenewProductID
        self.autoRenewStatus = autoRenewStatus
        self.expirationIntentRaw = expirationIntentRaw
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.priceConsentStatus = priceConsentStatus
    }

    /// Decodes one entry; every field is optional and read leniently (a malformed date throws `AppleValueError`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AppleKey.self)
        self.init(
            originalTransactionID: c.lenientString("original_transaction_id"),
            productID: c.lenientString("product_id"),
            autoRenewProductID: c.lenientString("auto_renew_product_id"),
            autoRenewStatus: c.lenientBool("auto_renew_status"),
            expirationIntentRaw: c.lenientString("expiration_intent"),
            isInBillingRetryPeriod: c.lenientBool("is_in_billing_retry_period"),
            gracePeriodExpiresDate: try c.lenientDate("grace_period_expires_date_ms", "grace_period_expires_date"),
            priceConsentStatus: c.lenientString("price_consent_status")
        )
    }
}
