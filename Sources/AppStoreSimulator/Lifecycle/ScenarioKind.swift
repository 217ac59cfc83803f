/// The customer lifecycles the simulator can play, each ending in a known state.
public enum ScenarioKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Purchase (with the free trial when eligible), then renewals: ends `active`.
    case trialRenews = "trial-renews"
    /// Renewals, then auto-renew off inside the current period: ends `active`, auto-renew off.
    case cancelPending = "cancel-pending"
    /// Renewals, auto-renew off, the period runs out: ends `expired` (`customer_cancelled`).
    case cancelExpire = "cancel-expire"
    /// Renewals, then a failed charge with a grace period: ends `grace_period`.
    case gracePeriod = "grace-period"
    /// A failed charge in the grace period, then recovery (`DID_RECOVER`): ends `active`.
    case graceRecovery = "grace-recovery"
    /// A failed charge without grace period: ends `billing_retry`.
    case billingRetry = "billing-retry"
    /// A failed charge without grace period, recovered while Apple retries: ends `active`,
    /// the new period starting at the recovery.
    case billingRetryRecovery = "billing-retry-recovery"
    /// A failed charge and Apple gives up retrying: ends `expired` (`billing_error`).
    case billingRetryExpire = "billing-retry-expire"
    /// Apple support refunds the current period (`CANCEL`): ends `revoked`.
    case refund
    /// Switch to a higher level of the group at once (`INTERACTIVE_RENEWAL`, `is_upgraded`).
    case upgrade
    /// Pick a lower level for the next renewal (`DID_CHANGE_RENEWAL_PREF`), which then renews.
    case downgrade
    /// Switch within the same level: at once for the same period length, else at renewal.
    case crossgrade
    /// Lapse after auto-renew off, then buy again later (`INTERACTIVE_RENEWAL`): ends `active`.
    case resubscribe
    /// A first purchase with an offer code (`OFFER_REDEEMED`/`INITIAL_BUY`; v1 `INITIAL_BUY`
    /// with `offer_code_ref_name`), then renewals at full price: ends `active`.
    case offerCode = "offer-code"
    /// Lapse, then come back with a promotional offer (`OFFER_REDEEMED`/`RESUBSCRIBE`; v1
    /// `INTERACTIVE_RENEWAL` with `promotional_offer_id`): ends `active`.
    case promotionalOffer = "promotional-offer"
    /// A refund (`REFUND`), then Apple reverses it (`REFUND_REVERSED`; silent in v1, only
    /// verifyReceipt loses the cancellation): ends `active`.
    case refundReversed = "refund-reversed"
    /// A Family Sharing member (`FAMILY_SHARED`) whose access ends (`REVOKE`): ends `revoked`.
    case familyRevoke = "family-revoke"
    /// The developer extends the current (non-offer) period (`RENEWAL_EXTENDED`; silent in v1,
    /// only verifyReceipt's `expires_date` moves): ends `active`.
    case renewalExtended = "renewal-extended"
    /// A failed charge with a grace period that runs out while Apple retries
    /// (`GRACE_PERIOD_EXPIRED`; silent in v1): ends `billing_retry`.
    case gracePeriodExpired = "grace-period-expired"

    /// The status the customer has right after the scenario.
    public var finalStatus: SimStatus {
        switch self {
        case .gracePeriod: .gracePeriod
        case .billingRetry, .gracePeriodExpired: .billingRetry
        case .cancelExpire, .billingRetryExpire: .expired
        case .refund, .familyRevoke: .revoked
        default: .active
        }
    }

    /// Whether the scenario moves to a second product of the group.
    var needsTarget: Bool {
        self == .upgrade || self == .downgrade || self == .crossgrade
    }

    /// Renewals the script does after the requested ones (kept under sandbox's limit).
    var extraRenewals: Int {
        self == .downgrade || self == .crossgrade || self == .renewalExtended ? 1 : 0
    }

    /// How often random customer generation picks the scenario, relative to the others: the
    /// original lifecycles 3, the rarer events Apple added to v2 2.
    var weight: Int {
        switch self {
        case .offerCode, .promotionalOffer, .refundReversed, .familyRevoke, .renewalExtended, .gracePeriodExpired: 2
        default: 3
        }
    }
}
