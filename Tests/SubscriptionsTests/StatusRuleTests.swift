import AppStore
import Foundation
import Subscriptions
import Testing

@Suite("subscription status rules")
struct StatusRuleTests {
    let history = [
        period("1000", from: 0, to: 30),
        period("1001", from: 30, to: 60),
        period("1002", from: 60, to: 90),
    ]

    @Test func activeBeforeExpiry() throws {
        let s = try #require(status(history, renewal(observedOn: 61), on: 75))
        #expect(s.status == .active)
        #expect(s.entitled)
        #expect(s.latestTransactionID == "1002")
        #expect(s.expiresAt == day(90))
        #expect(s.autoRenew == true)
        #expect(s.autoRenewProductID == "pro.monthly")
        #expect(s.expirationIntent == nil)
        #expect(s.subscriptionGroupID == "20500000")
        #expect(s.environment == .production && s.bundleID == "com.example.app")
    }

    @Test func neverActiveAtOrAfterExpiry() throws {
        #expect(status(history, on: 89.999)?.status == .active)
        #expect(status(history, on: 90)?.status == .expired)
        #expect(status(history, on: 400)?.status == .expired)
    }

    @Test func gracePeriodWhileRetryingBeforeGraceEnds() throws {
        let info = renewal(intent: .billingError, retrying: true, graceUntil: 96, observedOn: 90.1)
        let s = try #require(status(history, info, on: 92))
        #expect(s.status == .gracePeriod)
        #expect(s.entitled)
        #expect(s.gracePeriodExpiresAt == day(96))
        #expect(s.expirationIntent == .billingError)
    }

    @Test func billingRetryAfterGraceEndsOrWithoutGrace() throws {
        let withGrace = renewal(intent: .billingError, retrying: true, graceUntil: 96, observedOn: 90.1)
        #expect(status(history, withGrace, on: 96)?.status == .billingRetry)
        let noGrace = renewal(intent: .billingError, retrying: true, observedOn: 90.1)
        let s = try #require(status(history, noGrace, on: 92))
        #expect(s.status == .billingRetry)
        #expect(!s.entitled)
    }

    @Test func billingRetryStatedBeforeTheNewestPeriodIsStale() {
        // Apple retried after day 60, then the renewal on day 60 succeeded (1002).
        let stale = renewal(intent: .billingError, retrying: true, graceUntil: 200, observedOn: 59)
        #expect(status(history, stale, on: 95)?.status == .expired)
    }

    @Test("expired says why", arguments: ExpirationIntent.allCases)
    func expiredWithIntent(intent: ExpirationIntent) throws {
        let s = try #require(status(history, renewal(autoRenew: false, intent: intent, observedOn: 91), on: 100))
        #expect(s.status == .expired)
        #expect(!s.entitled)
        #expect(s.expirationIntent == intent)
        #expect(s.autoRenew == false)
        #expect(s.inTrial == false)
    }

    @Test func expiredWithoutRenewalInfoInventsNoIntent() throws {
        let s = try #require(status(history, on: 100))
        #expect(s.status == .expired)
        #expect(s.expirationIntent == nil)
        #expect(s.autoRenew == nil)
    }

    @Test func refundedCurrentPeriodIsRevoked() throws {
        let facts = [history[0], history[1], period("1002", from: 60, to: 90, cancelledOn: 65, reason: "1")]
        let s = try #require(status(facts, renewal(autoRenew: false, observedOn: 65), on: 70))
        #expect(s.status == .revoked)
        #expect(!s.entitled)
        #expect(s.revokedAt == day(65))
        #expect(s.revocationReason == "1")
        #expect(s.latestTransactionID == "1002")
    }

    @Test func revokedThenResubscribedIsActive() throws {
        let facts =
            history.dropLast() + [
                period("1002", from: 60, to: 90, cancelledOn: 65, reason: "0"),
                period("1003", from: 70, to: 100),
            ]
        let s = try #require(status(Array(facts), on: 80))
        #expect(s.status == .active)
        #expect(s.latestTransactionID == "1003")
        #expect(s.revokedAt == nil && s.revocationReason == nil)
        // Once the new period ends it is simply expired: the refund was earlier.
        #expect(status(Array(facts), on: 101)?.status == .expired)
    }

    @Test func olderRefundDoesNotRevokeALaterPeriod() {
        let facts = [period("1000", from: 0, to: 30, cancelledOn: 10), period("1001", from: 40, to: 70)]
        #expect(status(facts, on: 50)?.status == .active)
        #expect(status(facts, on: 80)?.status == .expired)
    }

    @Test func upgradeEndsTheOldPeriodAndTheNewProductIsCurrent() throws {
        // A yearly basic plan bought on day 0 is upgraded on day 10 to a higher-tier monthly
        // plan: the yearly row says is_upgraded (older receipts also set its cancellation date)
        // and still shows its original, later expiry.
        let facts = [
            period("1000", product: "basic.yearly", from: 0, to: 365, upgraded: true, cancelledOn: 10),
            period("1001", product: "premium.monthly", from: 10, to: 40, group: nil),
        ]
        let s = try #require(status(facts, on: 20))
        #expect(s.status == .active)
        #expect(s.productID == "premium.monthly")
        #expect(s.latestTransactionID == "1001")
        #expect(s.expiresAt == day(40))
        #expect(s.subscriptionGroupID == "20500000")  // from the older period of the same subscription
        let later = try #require(status(facts, on: 50))
        #expect(later.status == .expired)  // the upgraded year covers nothing, and is not a refund
        #expect(later.productID == "premium.monthly")
        #expect(later.revokedAt == nil)
    }

    @Test func onlyAnUpgradedPeriodKnownStillCounts() {
        let facts = [period("1000", from: 0, to: 30, upgraded: true)]
        #expect(status(facts, on: 5)?.latestTransactionID == "1000")
    }

    @Test func trialAndIntroFlagsOnlyWhileActive() throws {
        let facts = [period("1000", from: 0, to: 7, trial: true), period("1001", from: 7, to: 37, intro: true)]
        let inTrial = try #require(status([facts[0]], on: 3))
        #expect(inTrial.inTrial && !inTrial.inIntroOffer)
        let inIntro = try #require(status(facts, on: 10))
        #expect(!inIntro.inTrial && inIntro.inIntroOffer)
        let lapsed = try #require(status([facts[0]], on: 8))
        #expect(lapsed.status == .expired && !lapsed.inTrial && !lapsed.inIntroOffer)
    }

    @Test func nilWithoutSubscriptionTransactions() {
        #expect(status([], on: 1) == nil)
        #expect(status([period("1000", from: 0, to: nil)], on: 1) == nil)  // not auto-renewable
        #expect(status([period("2000", original: "2000", from: 0, to: 30)], on: 1) == nil)  // another subscription
    }

    @Test func renewalOfAnotherSubscriptionIsIgnored() {
        let other = renewal(original: "2000", intent: .billingError, retrying: true, graceUntil: 100, observedOn: 91)
        let s = status(history, other, on: 92)
        #expect(s?.status == .expired)
        #expect(s?.autoRenew == nil)
    }

    @Test func theSameFactsInAnyOrderGiveTheSameSnapshot() {
        let facts =
            history + [
                period("1003", from: 90, to: 120, cancelledOn: 95),
                period("1004", from: 95, to: 125, upgraded: true),
                period("1005", product: "pro.yearly", from: 95, to: 460),
                period("1001", from: 30, to: 60, trial: true),  // a second observation of 1001
            ]
        let info = renewal(observedOn: 96, nextProduct: "pro.yearly")
        var rng = SplitMix64(state: 42)
        for now in [10.0, 45, 92, 96, 200, 461] {
            let expected = status(facts, info, on: now)
            for _ in 0..<25 {
                #expect(status(facts.shuffled(using: &rng), info, on: now) == expected)
            }
        }
    }
}
