import AppStore
import Foundation
import Subscriptions
import Testing

/// Who a promotional offer's audiences admit, from the customer's subscriptions in the group.
@Suite("promotional offer audiences")
struct OfferAudienceTests {
    static func subscription(_ status: SubscriptionStatus, autoRenew: Bool? = true) -> SubscriptionSnapshot {
        SubscriptionSnapshot(
            originalTransactionID: "1000", bundleID: "com.example.app", environment: .production, productID: "pro.monthly",
            subscriptionGroupID: "20500000", status: status, expiresAt: day(30), autoRenew: autoRenew, autoRenewProductID: nil,
            expirationIntent: nil, inTrial: false, inIntroOffer: false, gracePeriodExpiresAt: nil, revokedAt: nil,
            revocationReason: nil, latestTransactionID: "1001")
    }

    /// Each customer, by the audiences that admit them.
    @Test(
        "each kind of customer is in exactly the audiences that name them",
        arguments: [
            ("never subscribed", [], []),
            ("active, renewing", [subscription(.active)], [OfferAudience.active]),
            ("active, auto-renew off", [subscription(.active, autoRenew: false)], [.active, .autoRenewOff]),
            ("in a grace period", [subscription(.gracePeriod)], [.active, .billingRetry]),
            ("billing retry", [subscription(.billingRetry)], [.billingRetry]),
            ("expired", [subscription(.expired, autoRenew: false)], [.lapsed]),
            ("refunded", [subscription(.revoked)], [.lapsed]),
            ("expired and active again", [subscription(.expired), subscription(.active)], [.active]),
        ] as [(String, [SubscriptionSnapshot], [OfferAudience])])
    func audiences(name: String, group: [SubscriptionSnapshot], admitted: [OfferAudience]) {
        #expect(OfferAudience.allCases.filter { $0.includes(group) } == admitted, "\(name)")
    }

    @Test func anOfferAdmitsAnyoneInAnyOfItsAudiences() {
        let rule = PromotionalOfferRule(offerID: "stay", audiences: [.autoRenewOff, .billingRetry])
        #expect(rule.admits([Self.subscription(.active, autoRenew: false)]))
        #expect(rule.admits([Self.subscription(.billingRetry)]))
        #expect(!rule.admits([Self.subscription(.active)]))
        #expect(!rule.admits([]))
    }
}
