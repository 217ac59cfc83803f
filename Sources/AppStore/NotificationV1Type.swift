/// The `notification_type` values of version 1 server-to-server notifications.
///
/// Decoding keeps the raw string; this enum is only the typed view, so a type Apple adds
/// later reads as `nil` instead of failing the notification.
public enum NotificationV1Type: String, Sendable, Codable, Hashable, CaseIterable {
    /// First purchase of a subscription.
    case initialBuy = "INITIAL_BUY"
    /// Automatic renewal for a new period.
    case didRenew = "DID_RENEW"
    /// The customer resubscribed or renewed interactively.
    case interactiveRenewal = "INTERACTIVE_RENEWAL"
    /// Renewed after a failed renewal (billing recovered).
    case didRecover = "DID_RECOVER"
    /// Old name for recovery, no longer sent since March 2021.
    case renewal = "RENEWAL"
    /// Auto-renew turned on or off.
    case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
    /// The customer chose another product of the group for the next renewal.
    case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
    /// A renewal charge failed.
    case didFailToRenew = "DID_FAIL_TO_RENEW"
    /// Apple support cancelled or refunded the subscription (older bodies: also upgrades).
    case cancel = "CANCEL"
    /// Refund of a consumable, non-consumable or non-renewing purchase.
    case refund = "REFUND"
    /// A Family Sharing entitlement is no longer shared.
    case revoke = "REVOKE"
    /// Apple asked the customer to consent to a price increase.
    case priceIncreaseConsent = "PRICE_INCREASE_CONSENT"
    /// Apple asks for consumption data for a refund request.
    case consumptionRequest = "CONSUMPTION_REQUEST"
}
