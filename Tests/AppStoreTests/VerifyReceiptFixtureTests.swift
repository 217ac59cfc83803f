import AppStore
import Foundation
import Testing

@Suite("verifyReceipt fixtures")
struct VerifyReceiptFixtureTests {
    @Test("every verifyReceipt fixture decodes", arguments: try Fixtures.jsonFiles(in: "verifyReceipt"))
    func everyFixtureDecodes(file: String) throws {
        let response = try VerifyReceiptResponse.decode(from: Fixtures.bytes("verifyReceipt/\(file)"))
        #expect(file.hasPrefix("status\(response.status)"))
    }

    @Test func productionWithExpirationIntent() throws {
        let r = try VerifyReceiptResponse.decode(from: Fixtures.bytes("verifyReceipt/status0_production_expiration-intent.json"))
        #expect(r.status == 0)
        #expect(r.outcome == .apply)
        #expect(r.environment == .production)
        #expect(r.latestReceipt == "ZmFrZV9kYXRh")
        #expect(r.receipt?.bundleID == "com.some.thing")
        #expect(r.receipt?.originalApplicationVersion == "1.0")
        #expect(r.receipt?.inApp.count == 42)
        #expect(r.receipt?.legacyTransaction == nil)
        let t = try #require(r.latestReceiptInfo.first)
        #expect(r.latestReceiptInfo.count == 1)
        #expect(t.transactionID == "1000000767477815")
        #expect(t.originalTransactionID == "1000000723811158")
        #expect(t.productID == "one_month_subscription")
        #expect(t.purchaseDate == ms(1_611_147_600_000))
        #expect(t.expiresDate == ms(1_611_147_900_000))
        #expect(t.originalPurchaseDate == ms(1_601_297_754_000))
        #expect(t.webOrderLineItemID == "1000000059265094")
        #expect(t.inAppOwnershipType == "PURCHASED")
        #expect(t.subscriptionGroupIdentifier == "20667927")
        #expect(!t.isTrialPeriod && !t.isInIntroOfferPeriod && !t.isUpgraded)
        let info = try #require(r.pendingRenewalInfo.first)
        #expect(info.originalTransactionID == "1000000723811158")
        #expect(info.productID == "month_premium")
        #expect(info.autoRenewProductID == "one_month_subscription")
        #expect(info.autoRenewStatus == false)
        #expect(info.expirationIntent == .customerCancelled)
        #expect(info.isInBillingRetryPeriod == false)
        #expect(info.gracePeriodExpiresDate == nil)
    }

    @Test func sandboxCancelledTrial() throws {
        let r = try VerifyReceiptResponse.decode(from: Fixtures.bytes("verifyReceipt/status0_sandbox_cancelled-trial.json"))
        #expect(r.environment == .sandbox)
        let t = try #require(r.latestReceiptInfo.first)
        #expect(t.transactionID == "1000000218147500")
        #expect(t.isTrialPeriod)
        #expect(t.cancellationDate == ms(1_466_127_848_000))
        #expect(t.cancellationReason == "0")
        let inApp = try #require(r.receipt?.inApp.first)
        #expect(inApp.transactionID == "1000000218147651")
        #expect(inApp.originalTransactionID == "1000000218147500")
        #expect(inApp.expiresDate == ms(1_466_127_448_000))
        #expect(inApp.cancellationDate == ms(1_466_127_848_000))
        #expect(r.pendingRenewalInfo.isEmpty)
    }

    @Test func legacyNumericTypesBecomeStringsAndDates() throws {
        let r = try VerifyReceiptResponse.decode(from: Fixtures.bytes("verifyReceipt/status0_sandbox_legacy-numeric-types.json"))
        #expect(r.environment == .sandbox)
        #expect(r.receipt?.bundleID == "com.myapp")
        #expect(r.latestReceiptInfo.count == 2)
        let t = r.latestReceiptInfo[0]
        #expect(t.transactionID == "1000000104232856")
        #expect(t.originalTransactionID == "1000000093384828")
        #expect(t.webOrderLineItemID == "1000000027948608")
        #expect(t.quantity == 1)
        #expect(t.isTrialPeriod == false)
        #expect(t.expiresDate == ms(1_394_619_485_000))
        #expect(r.latestReceiptInfo[1].purchaseDate == ms(1_396_071_456_569))
        #expect(r.receipt?.inApp.map(\.transactionID) == ["1000000156455961", "1000000156014803"])
        #expect(r.receipt?.inApp.allSatisfy { $0.expiresDate == nil } == true)
        #expect(r.pendingRenewalInfo.first?.autoRenewStatus == true)
    }

    @Test func trialWithExpirationIntentKeepsRepeatedEntries() throws {
        let r = try VerifyReceiptResponse.decode(from: Fixtures.bytes("verifyReceipt/status0_sandbox_trial_expiration-intent.json"))
        #expect(r.latestReceiptInfo.map(\.transactionID) == ["1000000218147501", "1000000218147501", "1000000218147500"])
        #expect(r.latestReceiptInfo[0].expiresDate == nil)
        #expect(r.latestReceiptInfo[1].expiresDate == ms(1_466_127_147_996))
        #expect(r.latestReceiptInfo.allSatisfy { $0.isTrialPeriod && $0.isInIntroOfferPeriod })
        let info = try #require(r.pendingRenewalInfo.first)
        #expect(info.expirationIntent == .customerCancelled)
        #expect(info.autoRenewStatus == false)
        #expect(info.isInBillingRetryPeriod == false)
        #expect(info.autoRenewProductID == "renew_product_id")
    }

    @Test func status21003IsPermanentEvenWithAReceipt() throws {
        let r = try VerifyReceiptResponse.decode(from: Fixtures.bytes("verifyReceipt/status21003_with-receipt.json"))
        #expect(r.status == 21003)
        #expect(r.outcome == .permanent(reason: "21003: receipt could not be authenticated"))
        #expect(r.receipt?.bundleID == "com.example.bad_app")
        #expect(r.latestReceiptInfo.first?.productID == "com.example.bad_product_id")
    }

    @Test func status21006LegacyBodyIsApplied() throws {
        let r = try VerifyReceiptResponse.decode(from: Fixtures.bytes("verifyReceipt/status21006_expired-cancelled_legacy.json"))
        #expect(r.status == 21006)
        #expect(r.outcome == .apply)
        #expect(r.environment == nil)
        #expect(r.autoRenewStatus == false)  // a JSON number 0 here
        #expect(r.autoRenewProductID == "year-premium")
        let expired = try #require(r.latestExpiredReceiptInfo)
        #expect(expired.transactionID == "123456789012345")
        #expect(expired.cancellationDate == ms(1_522_076_259_000))
        #expect(expired.expiresDate == ms(1_552_706_848_000))
        // An iOS 6 style receipt is a transaction itself.
        #expect(r.receipt?.bundleID == nil)
        #expect(r.receipt?.inApp.isEmpty == true)
        #expect(r.receipt?.legacyTransaction?.productID == "year-premium")
        #expect(r.latestReceiptInfo.isEmpty)
    }

    @Test func status21007IsJustAStatus() throws {
        let r = try VerifyReceiptResponse.decode(from: Fixtures.bytes("verifyReceipt/status21007.json"))
        #expect(r.status == 21007)
        #expect(r.outcome == .resendToSandbox)
        #expect(r.latestReceiptInfo.isEmpty && r.pendingRenewalInfo.isEmpty)
        #expect(r.receipt == nil && r.environment == nil && r.isRetryable == nil)
    }
}
