/// The `subtype` values of version 2 notifications known to this code.
///
/// Like ``NotificationV2Type``, only a typed view over the raw string that is always kept.
public enum NotificationV2Subtype: String, Sendable, Codable, Hashable, CaseIterable {
    /// First purchase of the subscription group.
    case initialBuy = "INITIAL_BUY"
    /// Resubscribed after lapsing.
    case resubscribe = "RESUBSCRIBE"
    /// A downgrade, effective at the next renewal.
    case downgrade = "DOWNGRADE"
    /// An upgrade, effective at once.
    case upgrade = "UPGRADE"
    /// Auto-renew turned on.
    case autoRenewEnabled = "AUTO_RENEW_ENABLED"
    /// Auto-renew turned off.
    case autoRenewDisabled = "AUTO_RENEW_DISABLED"
    /// Expired after the customer turned auto-renew off.
    case voluntary = "VOLUNTARY"
    /// Expired after billing retry ended without recovery.
    case billingRetry = "BILLING_RETRY"
    /// Expired because the customer did not consent to a price increase.
    case priceIncrease = "PRICE_INCREASE"
    /// The renewal failed and the grace period began.
    case gracePeriod = "GRACE_PERIOD"
    /// The price increase awaits the customer's consent.
    case pending = "PENDING"
    /// The customer accepted the price increase (or none was needed).
    case accepted = "ACCEPTED"
    /// Renewed after a failed charge was recovered.
    case billingRecovery = "BILLING_RECOVERY"
    /// Expired because the product was not for sale at renewal.
    case productNotForSale = "PRODUCT_NOT_FOR_SALE"
    /// The summary of a mass renewal-date extension.
    case summary = "SUMMARY"
    /// A renewal-date extension failed for one subscription.
    case failure = "FAILURE"
    /// An external purchase token was not reported in time.
    case unreported = "UNREPORTED"
}
