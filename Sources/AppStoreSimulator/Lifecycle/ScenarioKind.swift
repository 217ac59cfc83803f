import Foundation

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
    /// Auto-renew off, and the period ends `silentEndingLead` after the run with no
    /// notification (Apple sends none in v1, and a lost v2 EXPIRED is no different): `active`
    /// at the end of the run, `expired` soon after — only subscriptiond's status sweep can tell.
    case silentLapse = "silent-lapse"
    /// A failed charge whose grace period ends `silentEndingLead` after the run, with no
    /// notification: `grace_period` at the end of the run, `billing_retry` soon after.
    case silentGraceEnd = "silent-grace-end"
    /// A lifetime unlock (non-consumable) and nothing else: its entitlement for good
    /// (`non_consumable`). v2 `ONE_TIME_CHARGE`; silent in v1.
    case lifetime
    /// A lifetime unlock Apple refunds days later (`REFUND` in both versions): entitled to nothing.
    case lifetimeRefund = "lifetime-refund"
    /// Two 30-day passes (non-renewing) bought 10 days apart, the first 25 days ago: they stack,
    /// so the entitlement is active (`non_renewing`) until 60 days after the first purchase.
    case passesStack = "passes-stack"
    /// Two stacked passes, the second refunded pro rata (`REFUND_PRORATED`): only the first
    /// counts, so the entitlement ends 30 days after the first purchase.
    case passRefunded = "pass-refunded"
    /// A 30-day pass bought 40 days ago: not entitled any more.
    case passExpired = "pass-expired"
    /// A consumable (coins): one more purchase, no entitlement.
    case consumable
    /// A free 14-day trial product (`trial_of`) bought 13 days ago: entitled (`trial`) one more day.
    case trialProduct = "trial-product"
    /// The trial product bought 15 days ago: not entitled any more.
    case trialProductEnded = "trial-product-ended"
    /// A subscriber who also buys the lifetime unlock: both grant the entitlement; the unlock
    /// wins, since it never ends. The subscription ends `active`.
    case lifetimeAndSubscription = "lifetime-and-subscription"
    /// A customer of a formerly paid app who first downloaded it before its grandfather version
    /// (original version 1.9), with no purchase: the app's entitlement for good (`grandfathered`).
    case grandfathered
    /// A customer of that app since version 2.0 or 10.1, with no purchase: not entitled.
    case notGrandfathered = "not-grandfathered"
    /// Subscribed; asks Apple for a refund (CONSUMPTION_REQUEST, v2 only), which Apple
    /// declines an hour later (REFUND_DECLINED): still active.
    case refundDeclined = "refund-declined"

    /// The scenarios of auto-renewable subscriptions alone (every kind before purchases of
    /// other products and grandfathering existed), for runs that want only those.
    public static let subscriptionLifecycles: [ScenarioKind] = allCases.filter {
        $0.buysSubscription && $0 != .lifetimeAndSubscription
    }

    /// The status the customer's subscription has right after the scenario; `nil` when the
    /// scenario buys no subscription.
    public var finalStatus: SimStatus? {
        switch self {
        case .gracePeriod, .silentGraceEnd: .gracePeriod
        case .billingRetry, .gracePeriodExpired: .billingRetry
        case .cancelExpire, .billingRetryExpire: .expired
        case .refund, .familyRevoke: .revoked
        case .lifetime, .lifetimeRefund, .passesStack, .passRefunded, .passExpired, .consumable,
            .trialProduct, .trialProductEnded, .grandfathered, .notGrandfathered:
            nil
        default: .active
        }
    }

    /// Whether the scenario buys an auto-renewable subscription.
    public var buysSubscription: Bool {
        finalStatus != nil
    }

    /// How long after the end of the run a silent scenario's subscription changes by time alone.
    public static let silentEndingLead: TimeInterval = 40

    /// Whether the scenario's subscription changes `silentEndingLead` after the run, unannounced.
    public var endsSilentlyAfterRun: Bool {
        self == .silentLapse || self == .silentGraceEnd
    }

    /// Whether what the scenario is about has no v1 notification (a refund request).
    public var announcedInV2Only: Bool {
        self == .refundDeclined
    }

    /// Whether the scenario needs an app with a grandfather rule.
    var needsGrandfather: Bool {
        self == .grandfathered || self == .notGrandfathered
    }

    /// Whether `product` is the one-time product the scenario buys; always false for scenarios
    /// that buy none.
    func buys(_ product: SimPurchaseProduct) -> Bool {
        switch self {
        case .lifetime, .lifetimeRefund, .lifetimeAndSubscription: product.kind == .nonConsumable && !product.isTrial
        case .passesStack, .passRefunded, .passExpired: product.kind == .nonRenewing
        case .consumable: product.kind == .consumable
        case .trialProduct, .trialProductEnded: product.isTrial
        default: false
        }
    }

    /// Whether the scenario buys a one-time product.
    var buysOneTimeProduct: Bool {
        switch self {
        case .lifetime, .lifetimeRefund, .lifetimeAndSubscription, .passesStack, .passRefunded, .passExpired,
            .consumable, .trialProduct, .trialProductEnded:
            true
        default: false
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
    /// original lifecycles 3, the rarer events Apple added to v2 2, silent endings 2, purchases
    /// of other products and grandfathering 2.
    var weight: Int {
        switch self {
        case .offerCode, .promotionalOffer, .refundReversed, .familyRevoke, .renewalExtended, .gracePeriodExpired, .refundDeclined: 2
        case .silentLapse, .silentGraceEnd: 2
        case _ where !Self.subscriptionLifecycles.contains(self): 2
        default: 3
        }
    }
}
