import AppStore
import Foundation
import Subscriptions
import Testing

@Suite("renewal facts: newest wins")
struct RenewalFactTests {
    @Test func laterObservationWins() {
        let old = renewal(autoRenew: true, observedOn: 10)
        let new = renewal(autoRenew: false, intent: .customerCancelled, observedOn: 11)
        #expect(new.isNewer(than: old))
        #expect(!old.isNewer(than: new))
        #expect(RenewalFact.newest([new, old]) == new)
        #expect(RenewalFact.newest([old, new]) == new)
    }

    @Test func sameInstantIsDecidedByContentNotArrival() {
        let a = renewal(autoRenew: true, observedOn: 10)
        let b = renewal(autoRenew: false, observedOn: 10)
        #expect(a.isNewer(than: b) != b.isNewer(than: a))
        #expect(!a.isNewer(than: a))
        #expect(RenewalFact.newest([a, b]) == RenewalFact.newest([b, a]))
    }

    @Test func absentAndPresentValuesDoNotTie() {
        let a = renewal(autoRenew: nil, observedOn: 10)
        var b = a
        b.priceConsentStatus = ""
        #expect(a.isNewer(than: b) != b.isNewer(than: a))
    }

    @Test func newestIsOrderIndependent() {
        let facts: [RenewalFact] = (0..<12).map { (i: Int) -> RenewalFact in
            let intent: ExpirationIntent? = i % 3 == 0 ? .billingError : nil
            return renewal(autoRenew: i % 2 == 0, intent: intent, observedOn: Double(i / 3))
        }
        var rng = SplitMix64(state: 3)
        let expected = RenewalFact.newest(facts)
        for _ in 0..<30 {
            #expect(RenewalFact.newest(facts.shuffled(using: &rng)) == expected)
        }
        #expect(RenewalFact.newest([]) == nil)
    }

    @Test func fromPendingRenewalInfo() throws {
        let info = PendingRenewalInfo(
            originalTransactionID: "1", productID: "p", autoRenewProductID: "q", autoRenewStatus: true,
            expirationIntentRaw: "2", isInBillingRetryPeriod: true, gracePeriodExpiresDate: day(3), priceConsentStatus: "1"
        )
        let fact = try #require(RenewalFact(pendingRenewalInfo: info, bundleID: "b", environment: .sandbox, observedAt: day(1)))
        #expect(fact.expirationIntent == .billingError)
        #expect(fact.isInBillingRetryPeriod && fact.gracePeriodExpiresDate == day(3))
        #expect(fact.observedAt == day(1) && fact.environment == .sandbox)
        #expect(RenewalFact(pendingRenewalInfo: PendingRenewalInfo(), bundleID: "b", environment: .sandbox, observedAt: day(1)) == nil)
        var silent = info
        silent.isInBillingRetryPeriod = nil
        #expect(
            RenewalFact(pendingRenewalInfo: silent, bundleID: "b", environment: .sandbox, observedAt: day(1))?.isInBillingRetryPeriod
                == false)
    }
}
