import AppStore
import Foundation
import Subscriptions
import Testing

@Suite("facts from real documents")
struct ReceiptFactsTests {
    @Test func productionVerifyResponse() throws {
        let facts = ReceiptFacts(
            verifyResponse: try RealWorld.verify("status0_production_expiration-intent.json"),
            bundleID: "fallback", observedAt: ms(1_611_147_700_000)
        )
        #expect(facts.environment == .production)
        #expect(facts.bundleID == "com.some.thing")
        #expect(facts.transactions.count == 43)  // 1 latest + 42 in_app, all distinct
        #expect(facts.subscriptionIDs == ["1000000723811158"])
        #expect(facts.latestReceipt == "ZmFrZV9kYXRh")
        let active = try #require(facts.snapshot(of: "1000000723811158", at: ms(1_611_147_800_000)))
        #expect(active.status == .active)
        #expect(active.latestTransactionID == "1000000767477815")
        #expect(active.autoRenew == false)
        #expect(active.subscriptionGroupID == "20667927")
        let expired = try #require(facts.snapshot(of: "1000000723811158", at: ms(1_611_147_900_000)))
        #expect(expired.status == .expired)
        #expect(expired.expirationIntent == .customerCancelled)
        #expect(expired.autoRenewProductID == "one_month_subscription")
    }

    /// One clock per comparison: a verify answer speaks for Apple's `request_date_ms`, the
    /// clock of signed payloads; the receipt's `in_app` snapshot speaks for no time at all.
    @Test func verifyFactsCarryApplesRequestDate() throws {
        let response = try RealWorld.verify("status0_sandbox_cancelled-trial.json")
        let requestDate = try #require(response.receipt?.requestDate)
        #expect(requestDate == ms(1_466_184_881_174))
        let facts = ReceiptFacts(verifyResponse: response, bundleID: "fallback", observedAt: requestDate.addingTimeInterval(2))
        let latestIDs = Set(response.latestReceiptInfo.map(\.transactionID))
        for fact in facts.transactions {
            #expect(fact.statedAt == (latestIDs.contains(fact.transactionID) ? requestDate : nil), "\(fact.transactionID)")
        }
        #expect(facts.renewals.allSatisfy { $0.observedAt == requestDate })
        // An answer dated two days after it arrived states nothing.
        let early = ReceiptFacts(verifyResponse: response, bundleID: "fallback", observedAt: requestDate.addingTimeInterval(-2 * 86_400))
        #expect(early.transactions.allSatisfy { $0.statedAt == nil })
    }

    @Test func repeatedEntriesAreMergedIntoOneFact() throws {
        let facts = ReceiptFacts(
            verifyResponse: try RealWorld.verify("status0_sandbox_trial_expiration-intent.json"),
            bundleID: "fallback", observedAt: ms(1_466_184_881_174)
        )
        #expect(facts.environment == .sandbox)
        #expect(facts.transactions.map(\.transactionID) == ["1000000218147500", "1000000218147501", "1000000218147651"])
        let merged = try #require(facts.transactions.first { $0.transactionID == "1000000218147501" })
        #expect(merged.expiresDate == ms(1_466_127_147_996))
        #expect(facts.renewals.map(\.originalTransactionID) == ["1000000218147500"])
    }

    @Test func cancelledTrialIsRevoked() throws {
        let facts = ReceiptFacts(
            verifyResponse: try RealWorld.verify("status0_sandbox_cancelled-trial.json"),
            bundleID: "fallback", observedAt: ms(1_466_184_881_174)
        )
        let s = try #require(facts.snapshot(of: "1000000218147500", at: ms(1_466_127_300_000)))
        #expect(s.status == .revoked)
        #expect(s.revokedAt == ms(1_466_127_848_000))
        #expect(s.revocationReason == "0")
        #expect(s.latestTransactionID == "1000000218147651")  // from receipt.in_app only
    }

    @Test func legacy21006UsesTheFallbacksAndTopLevelRenewal() throws {
        let facts = ReceiptFacts(
            verifyResponse: try RealWorld.verify("status21006_expired-cancelled_legacy.json"),
            bundleID: "com.example.app", observedAt: ms(1_600_000_000_000), environmentFallback: .sandbox
        )
        #expect(facts.environment == .sandbox)
        #expect(facts.bundleID == "com.example.app")
        #expect(facts.transactions.count == 1)
        let info = try #require(facts.renewal(of: "123456789012345"))
        #expect(info.autoRenewStatus == false && info.autoRenewProductID == "year-premium")
        #expect(facts.snapshot(of: "123456789012345", at: ms(1_600_000_000_000))?.status == .revoked)
    }

    @Test func didFailToRenewGivesGraceThenBillingRetry() throws {
        let facts = ReceiptFacts(
            notification: try RealWorld.notification("DID_FAIL_TO_RENEW_billing-retry.json"), observedAt: ms(1_582_300_000_000))
        #expect(facts.environment == .production)
        #expect(facts.bundleID == "")  // no bid anywhere and no fallback given
        let grace = try #require(facts.snapshot(of: "123456789012345", at: ms(1_583_000_000_000)))
        #expect(grace.status == .gracePeriod && grace.entitled)
        #expect(grace.expirationIntent == .billingError)
        #expect(grace.gracePeriodExpiresAt == ms(1_583_629_256_000))
        #expect(facts.snapshot(of: "123456789012345", at: ms(1_583_629_256_000))?.status == .billingRetry)
    }

    @Test func legacyFlatInitialBuyIsATrialWithTopLevelRenewal() throws {
        let n = try RealWorld.notification("INITIAL_BUY_trial_legacy-flat.json")
        let facts = ReceiptFacts(notification: n, observedAt: ms(1_551_903_100_000), bundleID: "com.example.app")
        #expect(facts.bundleID == "com.example.app")
        #expect(facts.latestReceipt == "latestreceipt==")
        let info = try #require(facts.renewal(of: "123456789012345"))
        #expect(info.autoRenewStatus == true && info.autoRenewProductID == "year-premium")
        let s = try #require(facts.snapshot(of: "123456789012345", at: ms(1_552_000_000_000)))
        #expect(s.status == .active && s.inTrial && s.autoRenew == true)
    }

    @Test func cancelNotificationIsRevoked() throws {
        let facts = ReceiptFacts(notification: try RealWorld.notification("CANCEL.json"), observedAt: ms(1_521_757_800_000))
        #expect(facts.bundleID == "com.bundle.id")  // the transaction's legacy bid
        let s = try #require(facts.snapshot(of: "720000238499386", at: ms(1_521_757_800_000)))
        #expect(s.status == .revoked)
        #expect(s.revokedAt == ms(1_521_757_701_000))
        #expect(s.autoRenew == false)
    }

    @Test func upgradeInARealSandboxCapture() throws {
        let n = try RealWorld.notification("DID_CHANGE_RENEWAL_STATUS_sandbox_full-unified-receipt.json")
        let facts = ReceiptFacts(notification: n, observedAt: ms(1_606_293_002_000))
        #expect(facts.environment == .sandbox && facts.bundleID == "com.twigano.fashion")
        #expect(facts.transactions.count == 54)
        let now = try #require(facts.snapshot(of: "1000000723811158", at: ms(1_606_293_002_000)))
        #expect(now.status == .active)
        #expect(now.productID == "month_premium")
        #expect(now.latestTransactionID == "1000000746095599")
        #expect(now.autoRenew == false && now.expirationIntent == nil)
        let later = try #require(facts.snapshot(of: "1000000723811158", at: ms(1_606_293_062_000)))
        #expect(later.status == .expired && later.expirationIntent == .customerCancelled)
    }

    @Test func notificationFactsAreOrderIndependent() throws {
        let n = try RealWorld.notification("RENEWAL_unified-receipt.json")
        let facts = ReceiptFacts(notification: n, observedAt: ms(1_594_910_300_000))
        var rng = SplitMix64(state: 11)
        let at = ms(1_594_910_400_000)
        let expected = facts.snapshot(of: "1000000715982567", at: at)
        #expect(expected?.status == .active && expected?.latestTransactionID == "1000000707558300")
        for _ in 0..<20 {
            let shuffled = SubscriptionStatusRule.snapshot(
                originalTransactionID: "1000000715982567",
                transactions: facts.transactions.shuffled(using: &rng),
                renewal: facts.renewal(of: "1000000715982567"), at: at
            )
            #expect(shuffled == expected)
        }
    }
}
