/// What happened at one lifecycle event; both notification versions derive their type from it.
enum LifecycleChange: Sendable, Hashable {
    /// First purchase in the group.
    case initialBuy
    /// A purchase in a group subscribed before, after a lapse.
    case resubscribe
    /// An automatic renewal.
    case renewal
    /// A renewal after failed charges.
    case recovery
    /// Auto-renew turned on (`true`) or off.
    case autoRenew(Bool)
    /// Another product chosen for the next renewal (downgrade, different-length crossgrade).
    case renewalPreference
    /// A switch effective at once (upgrade, same-length crossgrade).
    case switchNow
    /// The renewal charge failed; `grace` when a grace period keeps access.
    case billingFailed(grace: Bool)
    /// Apple support refunded the current period.
    case refund
    /// The period ended with auto-renew off.
    case lapse
    /// Apple stopped retrying the charge.
    case billingRetryEnded
    /// A purchase with a promotional offer or offer code: a first one in the group, or
    /// (`resubscribe`) one after a lapse.
    case offerRedeemed(resubscribe: Bool)
    /// Apple reversed the refund of the current period.
    case refundReversed
    /// A family member lost the access shared with them.
    case familyRevoked
    /// The developer extended the current period.
    case renewalExtended
    /// The grace period ended while Apple still retries the charge.
    case gracePeriodExpired
    /// A purchase of a consumable, non-consumable or non-renewing product.
    case oneTimeCharge
    /// Apple refunded such a purchase.
    case oneTimeRefund
    /// The customer asked Apple for a refund of the current period; Apple asks the developer
    /// for consumption information.
    case consumptionRequest
    /// Apple declined that refund.
    case refundDeclined

    /// The v1 `notification_type`; `nil` where v1 is silent (a reversal or an extension only
    /// shows in later verifyReceipt answers; v1 has no notification for a one-time purchase:
    /// the app posts its receipt).
    var v1Type: NotificationType? {
        switch self {
        case .initialBuy: .initialBuy
        case .resubscribe, .switchNow: .interactiveRenewal
        case .renewal: .didRenew
        case .recovery: .didRecover
        case .autoRenew: .didChangeRenewalStatus
        case .renewalPreference: .didChangeRenewalPref
        case .billingFailed: .didFailToRenew
        case .refund: .cancel
        case .offerRedeemed(let resubscribe): resubscribe ? .interactiveRenewal : .initialBuy
        case .familyRevoked: .revoke
        case .oneTimeRefund: .refund
        case .lapse, .billingRetryEnded, .refundReversed, .renewalExtended, .gracePeriodExpired, .oneTimeCharge, .consumptionRequest,
            .refundDeclined:
            nil
        }
    }

    /// The v2 `notificationType` and `subtype`.
    var v2Type: NotificationTypeV2 {
        switch self {
        case .initialBuy: NotificationTypeV2("SUBSCRIBED", "INITIAL_BUY")
        case .resubscribe: NotificationTypeV2("SUBSCRIBED", "RESUBSCRIBE")
        case .renewal: NotificationTypeV2("DID_RENEW")
        case .recovery: NotificationTypeV2("DID_RENEW", "BILLING_RECOVERY")
        case .autoRenew(let on): NotificationTypeV2("DID_CHANGE_RENEWAL_STATUS", on ? "AUTO_RENEW_ENABLED" : "AUTO_RENEW_DISABLED")
        // Apple: UPGRADE for upgrades and same-length crossgrades (at once), DOWNGRADE for
        // downgrades and different-length crossgrades (at the next renewal).
        case .renewalPreference: NotificationTypeV2("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE")
        case .switchNow: NotificationTypeV2("DID_CHANGE_RENEWAL_PREF", "UPGRADE")
        case .billingFailed(let grace): NotificationTypeV2("DID_FAIL_TO_RENEW", grace ? "GRACE_PERIOD" : nil)
        case .refund: NotificationTypeV2("REFUND")
        case .lapse: NotificationTypeV2("EXPIRED", "VOLUNTARY")
        case .billingRetryEnded: NotificationTypeV2("EXPIRED", "BILLING_RETRY")
        case .offerRedeemed(let resubscribe): NotificationTypeV2("OFFER_REDEEMED", resubscribe ? "RESUBSCRIBE" : "INITIAL_BUY")
        case .refundReversed: NotificationTypeV2("REFUND_REVERSED")
        case .familyRevoked: NotificationTypeV2("REVOKE")
        case .renewalExtended: NotificationTypeV2("RENEWAL_EXTENDED")
        case .gracePeriodExpired: NotificationTypeV2("GRACE_PERIOD_EXPIRED")
        case .oneTimeCharge: NotificationTypeV2("ONE_TIME_CHARGE")
        case .oneTimeRefund: NotificationTypeV2("REFUND")
        case .consumptionRequest: NotificationTypeV2("CONSUMPTION_REQUEST")
        case .refundDeclined: NotificationTypeV2("REFUND_DECLINED")
        }
    }
}
