import AppStore
import Foundation
import Subscriptions
import Testing

@Suite struct EntitlementRuleTests {
    typealias F = EntitlementFixture

    @Test func aLifetimeBuyerWithoutSubscriptionIsEntitledForGood() {
        let pro = F.entitlements(CustomerHoldings(oneTimePurchases: [F.purchase("pro.lifetime", id: "t1", daysAgo: 400)]))["pro"]
        #expect(
            pro
                == EntitlementState(
                    active: true, source: .nonConsumable, productID: "pro.lifetime", expiresAt: nil, environment: .production))
    }

    @Test func aRefundedLifetimePurchaseGrantsNothing() {
        let refunded = F.purchase("pro.lifetime", id: "t1", daysAgo: 40, refundedDaysAgo: 2)
        #expect(F.entitlements(CustomerHoldings(oneTimePurchases: [refunded]))["pro"] == .inactive)
    }

    /// REFUND_PRORATED (2026) is a refund: DESIGN.md's "a refunded or revoked purchase grants nothing".
    @Test func aProratedRefundRevokesLikeAFullOne() {
        let prorated = F.purchase("pro.lifetime", id: "t1", daysAgo: 40, refundedDaysAgo: 2, revocationType: "REFUND_PRORATED")
        #expect(prorated.isRevoked)
        #expect(F.entitlements(CustomerHoldings(oneTimePurchases: [prorated]))["pro"] == .inactive)
    }

    @Test func twoPassesBoughtTenDaysApartStackToSixtyDaysFromTheFirst() throws {
        let first = F.purchase("pass.30days", id: "p1", daysAgo: 25)
        let second = F.purchase("pass.30days", id: "p2", daysAgo: 15)
        let holdings = CustomerHoldings(oneTimePurchases: [second, first])
        let pro = try #require(F.entitlements(holdings)["pro"])
        #expect(pro.active && pro.source == .nonRenewing)
        #expect(pro.expiresAt == first.purchaseDate + F.days(60))
        // Day 59 after the first: active; day 61: not.
        #expect(F.entitlements(holdings, at: first.purchaseDate + F.days(59))["pro"]?.active == true)
        #expect(F.entitlements(holdings, at: first.purchaseDate + F.days(61))["pro"] == .inactive)
        #expect(
            EntitlementRule.nextChange(after: F.now, of: holdings, catalog: F.catalog, policy: F.policies.policy(for:))
                == first.purchaseDate + F.days(60))
    }

    @Test func aPassAfterAGapStartsAgainFromItsOwnPurchase() {
        let old = F.purchase("pass.30days", id: "p1", daysAgo: 100)
        let recent = F.purchase("pass.30days", id: "p2", daysAgo: 5)
        let pro = F.entitlements(CustomerHoldings(oneTimePurchases: [old, recent]))["pro"]
        #expect(pro?.expiresAt == recent.purchaseDate + F.days(30))
    }

    @Test func aRefundedPassLeavesTheStack() {
        let first = F.purchase("pass.30days", id: "p1", daysAgo: 25, refundedDaysAgo: 20)
        let second = F.purchase("pass.30days", id: "p2", daysAgo: 15)
        #expect(F.entitlements(CustomerHoldings(oneTimePurchases: [first, second]))["pro"]?.expiresAt == second.purchaseDate + F.days(30))
    }

    @Test func aConsumableIsAPurchaseThatGrantsNothing() {
        let coins = F.purchase("coins.100", id: "c1", daysAgo: 1)
        let holdings = CustomerHoldings(oneTimePurchases: [coins])
        #expect(F.entitlements(holdings)["pro"] == .inactive)
        #expect(PurchaseSummary.purchases(of: holdings, catalog: F.catalog).map(\.type) == [.consumable])
    }

    @Test func aTrialLastsItsPeriodFromThePurchaseByTheServersClock() {
        let day13 = F.entitlements(CustomerHoldings(oneTimePurchases: [F.purchase("pro.trial", id: "tr", daysAgo: 13)]))["pro"]
        #expect(day13?.active == true && day13?.source == .trial && day13?.productID == "pro.trial")
        #expect(F.entitlements(CustomerHoldings(oneTimePurchases: [F.purchase("pro.trial", id: "tr", daysAgo: 15)]))["pro"] == .inactive)
    }

    @Test(arguments: [
        ("1.9", true), ("1", true), ("1.10.3", true), ("2.0", false), ("2", false), ("10.1", false), ("2.0.0.1", false), ("1.9b", false),
        ("", false),
    ])
    func grandfatheringComparesDottedNumbers(version: String, grandfathered: Bool) {
        let holdings = CustomerHoldings(versions: [
            OriginalApplicationVersion(bundleID: F.paidApp, environment: .production, version: version)
        ])
        let paid = F.entitlements(holdings)["paid_pro"]
        #expect(
            paid
                == (grandfathered
                    ? EntitlementState(active: true, source: .grandfathered, productID: nil, expiresAt: nil, environment: .production)
                    : .inactive))
        // Only the app with the rule grandfathers.
        let otherApp = CustomerHoldings(versions: [OriginalApplicationVersion(bundleID: F.app, environment: .production, version: version)])
        #expect(F.entitlements(otherApp)["paid_pro"] == .inactive)
    }

    @Test func aGrantLastsUntilItsEndAndNotAfterRevocation() {
        let tomorrow = F.now + F.days(1)
        let grant = ManualGrant(
            id: 1, appUserID: "u", entitlement: "pro", expiresAt: tomorrow, reason: "support", createdAt: F.now, revokedAt: nil)
        let holdings = CustomerHoldings(grants: [grant])
        #expect(
            F.entitlements(holdings)["pro"]
                == EntitlementState(active: true, source: .grant, productID: nil, expiresAt: tomorrow, environment: nil))
        #expect(F.entitlements(holdings, at: tomorrow + 1)["pro"] == .inactive)
        let revoked = ManualGrant(
            id: 1, appUserID: "u", entitlement: "pro", expiresAt: nil, reason: "x", createdAt: F.now, revokedAt: F.now)
        #expect(F.entitlements(CustomerHoldings(grants: [revoked]))["pro"] == .inactive)
    }

    @Test func theLongestLastingSourceIsNamed() throws {
        let subscription = try #require(F.subscription(endsInDays: 20))
        let pass = F.purchase("pass.30days", id: "p1", daysAgo: 1)
        // A subscription ending in 20 days and a pass ending in 29: the pass.
        let both = F.entitlements(CustomerHoldings(subscriptions: [subscription], oneTimePurchases: [pass]))["pro"]
        #expect(both?.source == .nonRenewing)
        // A lifetime unlock lasts for good: it wins over both.
        let all = F.entitlements(
            CustomerHoldings(
                subscriptions: [subscription], oneTimePurchases: [pass, F.purchase("pro.lifetime", id: "l", daysAgo: 300)]))["pro"]
        #expect(all?.source == .nonConsumable && all?.expiresAt == nil)
        // Alone, the subscription grants until its expiry.
        #expect(F.entitlements(CustomerHoldings(subscriptions: [subscription]))["pro"]?.expiresAt == subscription.expiresAt)
    }

    @Test func sandboxPurchasesCountOnlyWhereThePolicyGrantsThem() {
        let sandbox = F.purchase("pro.lifetime", id: "s1", daysAgo: 3, environment: .sandbox)
        let holdings = CustomerHoldings(oneTimePurchases: [sandbox])
        #expect(F.entitlements(holdings)["pro"]?.environment == .sandbox)
        let ignoring = EntitlementPolicies([F.app: EntitlementPolicy(sandboxEntitlement: .ignore)])
        #expect(F.entitlements(holdings, policies: ignoring)["pro"] == .inactive)
        // Still a purchase.
        #expect(PurchaseSummary.purchases(of: holdings, catalog: F.catalog).map(\.fact.transactionID) == ["s1"])
    }

    @Test func aPurchaseMadeInAnotherAppGrantsNothingWhateverItsEnvironment() throws {
        let xcode = EntitlementPolicies([
            F.app: EntitlementPolicy(xcodeEntitlement: true), "com.other.app": EntitlementPolicy(xcodeEntitlement: true),
        ])
        for environment in [AppStoreEnvironment.xcode, .production, .sandbox] {
            // An Xcode-signed transaction can name any bundle: one app's purchase of another app's product.
            var lifetime = F.purchase("pro.lifetime", id: "x1", daysAgo: 1, environment: environment)
            lifetime.bundleID = "com.other.app"
            #expect(F.entitlements(CustomerHoldings(oneTimePurchases: [lifetime]), policies: xcode)["pro"] == .inactive, "\(environment)")
            var subscription = try #require(F.subscription(endsInDays: 10, environment: environment))
            subscription.bundleID = "com.other.app"
            #expect(F.entitlements(CustomerHoldings(subscriptions: [subscription]), policies: xcode)["pro"] == .inactive, "\(environment)")
            // The same purchase in its own app grants.
            lifetime.bundleID = F.app
            #expect(
                F.entitlements(CustomerHoldings(oneTimePurchases: [lifetime]), policies: xcode)["pro"]?.active == true, "\(environment)")
        }
    }

    @Test func everyCatalogEntitlementAppears() {
        #expect(F.entitlements(CustomerHoldings()).keys.sorted() == ["paid_pro", "pro"])
    }

    @Test func pricesReadAsDecimalText() {
        func price(_ milliunits: Int64) -> String? {
            var fact = F.purchase("pro.lifetime", id: "x", daysAgo: 1)
            fact.priceMilliunits = milliunits
            return PurchaseSummary.purchases(of: CustomerHoldings(oneTimePurchases: [fact]), catalog: F.catalog).first?.price
        }
        #expect(price(9990) == "9.99")
        #expect(price(0) == "0.00")
        #expect(price(1005) == "1.005")
        #expect(price(120_000) == "120.00")
    }
}
