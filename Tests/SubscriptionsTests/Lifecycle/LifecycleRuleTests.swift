import AppStore
import Foundation
import Subscriptions
import Testing

@Suite("Lifecycle events derived from the change of a subscription's stored state")
struct LifecycleRuleTests {
    static let t0 = Date(timeIntervalSince1970: 1_780_000_000)
    static let month: TimeInterval = 30 * 86_400

    static func moment(
        _ status: SubscriptionStatus, product: String = "pro.monthly", expires: Date? = t0.addingTimeInterval(month),
        autoRenew: Bool? = true,
        renewsTo: String? = "pro.monthly", latest: String = "1", intent: ExpirationIntent? = nil, revocation: String? = nil
    ) -> SubscriptionMoment {
        SubscriptionMoment(
            status: status, productID: product, expiresAt: expires, autoRenew: autoRenew, autoRenewProductID: renewsTo,
            latestTransactionID: latest, expirationIntent: intent, revocationReason: revocation)
    }

    static func kinds(_ before: SubscriptionMoment?, _ after: SubscriptionMoment) -> [String] {
        LifecycleRule.events(before: before, after: after).map(\.kind.rawValue)
    }

    @Test("each change gives exactly its event; the same state again gives none")
    func oneEventEach() {
        let active = Self.moment(.active)
        let next = Self.t0.addingTimeInterval(2 * Self.month)
        let cases: [(String, SubscriptionMoment?, SubscriptionMoment, [String])] = [
            ("new", nil, active, ["subscription_created"]),
            ("redelivery", active, active, []),
            ("renewal", active, Self.moment(.active, expires: next, latest: "2"), ["renewed"]),
            (
                "resubscribe", Self.moment(.expired, autoRenew: false, intent: .customerCancelled),
                Self.moment(.active, expires: next, latest: "2"),
                ["renewed", "auto_renew_enabled"]
            ),
            ("auto-renew off", active, Self.moment(.active, autoRenew: false), ["auto_renew_disabled"]),
            ("auto-renew on", Self.moment(.active, autoRenew: false), active, ["auto_renew_enabled"]),
            ("downgrade chosen", active, Self.moment(.active, renewsTo: "pro.basic"), ["product_changed"]),
            ("billing issue in grace", active, Self.moment(.gracePeriod), ["billing_issue"]),
            ("billing issue, no grace", active, Self.moment(.billingRetry), ["billing_issue"]),
            ("recovered", Self.moment(.billingRetry), Self.moment(.active, expires: next, latest: "2"), ["renewed", "billing_recovered"]),
            ("grace over", Self.moment(.gracePeriod), Self.moment(.billingRetry), ["grace_period_expired"]),
            (
                "expired", Self.moment(.active, autoRenew: false), Self.moment(.expired, autoRenew: false, intent: .customerCancelled),
                ["expired"]
            ),
            ("refund", active, Self.moment(.revoked, revocation: "0"), ["refunded"]),
            ("refund reversed", Self.moment(.revoked, revocation: "0"), active, ["refund_reversed"]),
            ("extended", active, Self.moment(.active, expires: Self.t0.addingTimeInterval(Self.month + 86_400 * 7)), ["renewal_extended"]),
        ]
        for (name, before, after, expected) in cases {
            #expect(Self.kinds(before, after) == expected, "\(name)")
        }
    }

    @Test("details: the expiration intent, the revocation reason, products from and to, whether access continues")
    func details() {
        let active = Self.moment(.active)
        let expired = LifecycleRule.events(before: Self.moment(.billingRetry), after: Self.moment(.expired, intent: .billingError))
        #expect(expired == [LifecycleEvent(.expired, reason: "billing_error")])
        #expect(
            LifecycleRule.events(before: active, after: Self.moment(.revoked, revocation: "1")) == [LifecycleEvent(.refunded, reason: "1")])
        #expect(
            LifecycleRule.events(before: active, after: Self.moment(.gracePeriod)) == [LifecycleEvent(.billingIssue, accessContinues: true)]
        )
        #expect(
            LifecycleRule.events(before: Self.moment(.gracePeriod), after: Self.moment(.expired, intent: .billingError)) == [
                LifecycleEvent(.gracePeriodExpired), LifecycleEvent(.expired, reason: "billing_error"),
            ])
        // A downgrade: chosen during the period, then taking effect at renewal.
        let chosen = Self.moment(.active, renewsTo: "pro.basic")
        #expect(
            LifecycleRule.events(before: active, after: chosen) == [
                LifecycleEvent(.productChanged, reason: "renewal_preference", from: "pro.monthly", to: "pro.basic")
            ])
        let renewedAsBasic = Self.moment(
            .active, product: "pro.basic", expires: Self.t0.addingTimeInterval(2 * Self.month), renewsTo: "pro.basic", latest: "2")
        #expect(
            LifecycleRule.events(before: chosen, after: renewedAsBasic) == [
                LifecycleEvent(.productChanged, reason: "at_renewal", from: "pro.monthly", to: "pro.basic")
            ])
        // An upgrade: a new period of another product at once.
        let upgraded = Self.moment(
            .active, product: "pro.yearly", expires: Self.t0.addingTimeInterval(365 * 86_400), renewsTo: "pro.yearly", latest: "2")
        #expect(
            LifecycleRule.events(before: active, after: upgraded) == [
                LifecycleEvent(.productChanged, reason: "upgrade", from: "pro.monthly", to: "pro.yearly")
            ])
    }

    @Test("a status move nothing explains is status_changed")
    func otherMoves() {
        #expect(Self.kinds(Self.moment(.expired), Self.moment(.billingRetry)) == ["status_changed"])
        #expect(
            Self.kinds(Self.moment(.expired), Self.moment(.active)) == ["status_changed"],
            "same transaction, active again (a clock moved back)")
    }
}
