/// The `notificationType` values of version 2 notifications known to this code.
///
/// Decoding keeps the raw string; Apple adds types every year and an unknown one reads as
/// `nil` here, to be stored and acknowledged, never rejected.
public enum NotificationV2Type: String, Sendable, Codable, Hashable, CaseIterable {
    /// The customer subscribed (subtype INITIAL_BUY or RESUBSCRIBE).
    case subscribed = "SUBSCRIBED"
    /// The customer changed the product of the next renewal.
    case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
    /// Auto-renew was turned on or off.
    case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
    /// The customer redeemed a promotional offer or offer code.
    case offerRedeemed = "OFFER_REDEEMED"
    /// The subscription renewed.
    case didRenew = "DID_RENEW"
    /// The subscription expired.
    case expired = "EXPIRED"
    /// A renewal charge failed (billing retry, maybe grace period).
    case didFailToRenew = "DID_FAIL_TO_RENEW"
    /// The billing grace period ended without recovery.
    case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
    /// Apple told the customer about a price increase.
    case priceIncrease = "PRICE_INCREASE"
    /// Apple refunded a transaction.
    case refund = "REFUND"
    /// Apple declined a refund request.
    case refundDeclined = "REFUND_DECLINED"
    /// Apple reversed an earlier refund.
    case refundReversed = "REFUND_REVERSED"
    /// Apple asks for consumption data for a refund request.
    case consumptionRequest = "CONSUMPTION_REQUEST"
    /// The renewal date of one subscription was extended.
    case renewalExtended = "RENEWAL_EXTENDED"
    /// Progress or summary of a mass renewal-date extension.
    case renewalExtension = "RENEWAL_EXTENSION"
    /// Family Sharing access ended.
    case revoke = "REVOKE"
    /// A test notification requested through the API.
    case test = "TEST"
    /// An external purchase token was created but not reported.
    case externalPurchaseToken = "EXTERNAL_PURCHASE_TOKEN"
    /// A one-time purchase (consumable, non-consumable, non-renewing).
    case oneTimeCharge = "ONE_TIME_CHARGE"
    /// A parent or guardian withdrew consent for the app.
    case rescindConsent = "RESCIND_CONSENT"
    /// Advanced Commerce metadata changed.
    case metadataUpdate = "METADATA_UPDATE"
    /// An Advanced Commerce subscription was migrated.
    case migration = "MIGRATION"
    /// An Advanced Commerce price change.
    case priceChange = "PRICE_CHANGE"
}
