import AppStore
import Foundation
import Testing

@Suite("v1 notification fixtures")
struct NotificationV1FixtureTests {
    @Test("every v1 fixture decodes with a known type", arguments: try Fixtures.jsonFiles(in: "v1"))
    func everyFixtureDecodes(file: String) throws {
        let n = try NotificationV1.decode(from: Fixtures.bytes("v1/\(file)"))
        #expect(n.notificationType != nil)
        #expect(file.hasPrefix(n.notificationTypeRaw))
        #expect(n.environment != nil)
        #expect(!n.allTransactions.isEmpty)
        #expect(n.receiptData != nil)
    }

    @Test func cancelIsProductionWithRefundedTransaction() throws {
        let n = try NotificationV1.decode(from: Fixtures.bytes("v1/CANCEL.json"))
        #expect(n.notificationType == .cancel)
        #expect(n.environmentRaw == "PROD")
        #expect(n.environment == .production)
        #expect(n.password == "password")
        #expect(n.autoRenewStatus == false)
        #expect(n.autoRenewProductID == "com.PremiumYearly")
        #expect(n.cancellationDate == ms(1_521_757_701_000))
        #expect(n.receiptData == "<base 64>")
        // 2018 bodies carry one object, not an array, under unified_receipt.latest_receipt_info.
        let t = try #require(n.unifiedReceipt?.latestReceiptInfo.first)
        #expect(n.unifiedReceipt?.latestReceiptInfo.count == 1)
        #expect(t.transactionID == "720000240377671")
        #expect(t.originalTransactionID == "720000238499386")
        #expect(t.productID == "com.PremiumYearly")
        #expect(t.expiresDate == ms(1_551_912_249_000))  // legacy ms in expires_date
        #expect(t.purchaseDate == ms(1_520_376_249_000))
        #expect(t.cancellationDate == ms(1_521_757_701_000))
        #expect(t.cancellationReason == "0")
        #expect(t.bundleID == "com.bundle.id")
        #expect(n.originalTransactionIDs == ["720000238499386"])
    }

    @Test func didFailToRenewCarriesBillingRetryAndGrace() throws {
        let n = try NotificationV1.decode(from: Fixtures.bytes("v1/DID_FAIL_TO_RENEW_billing-retry.json"))
        #expect(n.notificationType == .didFailToRenew)
        #expect(n.environment == .production)
        #expect(n.password == nil)
        let unified = try #require(n.unifiedReceipt)
        #expect(unified.environment == .production)
        #expect(unified.status == 0)
        let info = try #require(unified.pendingRenewalInfo.first)
        #expect(info.isInBillingRetryPeriod == true)
        #expect(info.autoRenewStatus == true)
        #expect(info.gracePeriodExpiresDate == ms(1_583_629_256_000))
        #expect(info.expirationIntentRaw == "2")
        #expect(info.expirationIntent == .billingError)
        let t = try #require(unified.latestReceiptInfo.first)
        #expect(t.transactionID == "123456789012345")
        #expect(t.isTrialPeriod)
        #expect(!t.isInIntroOfferPeriod)
        #expect(t.expiresDate == ms(1_582_246_856_000))
        #expect(t.quantity == 1)
    }

    @Test func didRenewPrefersMillisecondsOverFormattedDates() throws {
        let n = try NotificationV1.decode(from: Fixtures.bytes("v1/DID_RENEW_synthetic.json"))
        #expect(n.notificationType == .didRenew)
        #expect(n.bundleID == "my.app")
        #expect(n.bundleVersion == "1.0.0")
        #expect(n.autoRenewStatus == true)
        #expect(n.originalTransactionID == "100000000000000")
        #expect(n.receiptData == "dummy_base64_encoded_receipt")
        let t = try #require(n.allTransactions.first)
        #expect(t.transactionID == "100000000000001")
        #expect(t.expiresDate == ms(1_747_636_952_000))
        #expect(t.originalPurchaseDate == ms(1_739_346_153_000))
        #expect(t.webOrderLineItemID == "100000000000002")
        #expect(t.inAppOwnershipType == "PURCHASED")
        #expect(t.subscriptionGroupIdentifier == "99999999")
        #expect(n.unifiedReceipt?.pendingRenewalInfo.first?.autoRenewStatus == true)
        #expect(n.originalTransactionIDs == ["100000000000000"])
    }

    @Test func initialBuyAndInteractiveRenewalAreSandbox() throws {
        let buy = try NotificationV1.decode(from: Fixtures.bytes("v1/INITIAL_BUY.json"))
        #expect(buy.notificationType == .initialBuy)
        #expect(buy.environment == .sandbox)
        #expect(buy.autoRenewProductID == "product_id.quarterly")
        let first = try #require(buy.allTransactions.first)
        #expect(first.transactionID == "1000000383185294")
        #expect(first.productID == "product_id.annual")
        #expect(first.expiresDate == ms(1_521_159_784_000))
        #expect(first.webOrderLineItemID == "1000000038128113")

        let renewal = try NotificationV1.decode(from: Fixtures.bytes("v1/INTERACTIVE_RENEWAL.json"))
        #expect(renewal.notificationType == .interactiveRenewal)
        let t = try #require(renewal.allTransactions.first)
        #expect(t.transactionID == "1000000383189797")
        #expect(t.originalTransactionID == "1000000383185294")
        #expect(t.purchaseDate == ms(1_521_160_835_000))
        #expect(t.expiresDate == ms(1_521_164_435_000))
    }

    @Test func legacyFlatInitialBuyUsesTopLevelFields() throws {
        let n = try NotificationV1.decode(from: Fixtures.bytes("v1/INITIAL_BUY_trial_legacy-flat.json"))
        #expect(n.unifiedReceipt == nil)
        #expect(n.receiptData == "latestreceipt==")
        #expect(n.environment == .production)
        let t = try #require(n.latestReceiptInfo)
        // No transaction_id in this trimmed first purchase: the original id stands in.
        #expect(t.transactionID == "123456789012345")
        #expect(t.isTrialPeriod)
        #expect(t.expiresDate == ms(1_552_504_296_000))
        #expect(t.purchaseDate == ms(1_551_903_096_000))
        #expect(n.allTransactions == [t])
        #expect(n.originalTransactionIDs == ["123456789012345"])
    }

    @Test func renewalWithUnifiedReceiptListsEveryPeriod() throws {
        let n = try NotificationV1.decode(from: Fixtures.bytes("v1/RENEWAL_unified-receipt.json"))
        #expect(n.notificationType == .renewal)
        #expect(n.bundleID == "co.bundle.id")
        #expect(n.bundleVersion == "84")
        #expect(n.password == "[FILTERED]")
        #expect(n.allTransactions.count == 22)
        let t = try #require(n.allTransactions.first { $0.transactionID == "1000000707558300" })
        #expect(t.expiresDate == ms(1_594_910_502_000))
        #expect(t.subscriptionGroupIdentifier == "21948041")
        #expect(n.originalTransactionIDs == ["1000000715982567"])
    }

    @Test func didChangeRenewalStatusFullSandboxCapture() throws {
        let n = try NotificationV1.decode(from: Fixtures.bytes("v1/DID_CHANGE_RENEWAL_STATUS_sandbox_full-unified-receipt.json"))
        #expect(n.notificationType == .didChangeRenewalStatus)
        #expect(n.environment == .sandbox)
        #expect(n.bundleID == "com.twigano.fashion")
        #expect(n.autoRenewStatus == false)
        #expect(n.autoRenewStatusChangeDate == ms(1_606_293_002_000))
        #expect(n.receiptData?.hasPrefix("MIJjCgYJKoZIhvcNAQcCoIJi+zCCYv") == true)
        #expect(n.allTransactions.count == 54)
        #expect(n.allTransactions.filter(\.isUpgraded).count == 4)
        let info = try #require(n.unifiedReceipt?.pendingRenewalInfo.first)
        #expect(info.expirationIntent == .customerCancelled)
        #expect(info.isInBillingRetryPeriod == false)
        #expect(info.autoRenewStatus == false)
        #expect(n.originalTransactionIDs == ["1000000723811158"])
    }

    @Test func descriptionNeverShowsTheSharedSecret() throws {
        let n = try NotificationV1.decode(from: Fixtures.bytes("v1/DID_RENEW_synthetic.json"))
        #expect(!n.description.contains("dummy_shared_secret"))
        #expect(!String(reflecting: n).contains("dummy_shared_secret"))
        #expect(!n.description.contains("dummy_base64_encoded_receipt"))
        #expect(n.description.contains("DID_RENEW"))
    }
}
