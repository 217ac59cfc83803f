import AppStoreSimulator
import Foundation
import Testing

@Suite("Entitlement rule: stacking, trial window, grandfathering, choosing")
struct EntitlementRuleTests {
    static let day: TimeInterval = 86_400
    static let configuration = SimulatorConfiguration.demo()
    static let catalog = configuration.catalog
    static let app = configuration.apps[0]
    static let paidApp = configuration.apps[1]
    static let pro = catalog.entitlement("pro")!

    private func purchase(
        _ id: String, _ product: String, _ kind: SimPurchaseProduct.Kind, day: Double, refundedDay: Double? = nil
    ) -> SimPurchase {
        SimPurchase(
            transactionID: id, productID: product, kind: kind, purchaseDate: fixedEnd.addingTimeInterval(day * Self.day),
            cancellationDate: refundedDay.map { fixedEnd.addingTimeInterval($0 * Self.day) },
            cancellationReason: refundedDay.map { _ in "0" }
        )
    }

    private func pass(_ id: String, day: Double, refundedDay: Double? = nil) -> SimPurchase {
        purchase(id, "com.example.pass.30days", .nonRenewing, day: day, refundedDay: refundedDay)
    }

    /// `pro` for purchases only, at `day` days after the fixed end.
    private func pro(
        _ purchases: [SimPurchase], app: SimApp = app, environment: SimEnvironment = .production, version: String? = nil, day: Double
    ) -> EntitlementTruth {
        let facts = EntitlementFacts(
            app: app, environment: environment, state: CustomerState(purchases: purchases), originalApplicationVersion: version)
        let all = EntitlementRule.entitlements(of: facts, catalog: Self.catalog, at: fixedEnd.addingTimeInterval(day * Self.day))
        return all.first { $0.id == "pro" }!
    }

    private func date(_ day: Double) -> Date {
        fixedEnd.addingTimeInterval(day * Self.day)
    }

    @Test func passesStackAndAGapStartsANewChain() throws {
        let passes = [pass("3", day: 70), pass("1", day: 0), pass("2", day: 10)]
        let stacked = EntitlementRule.stack(passes, catalog: Self.catalog)
        #expect(stacked.map(\.start) == [date(0), date(30), date(70)])
        #expect(stacked.map(\.end) == [date(30), date(60), date(100)])
        #expect(stacked.map(\.chainEnd) == [date(60), date(60), date(100)])

        let during = pro(passes, day: 45)
        #expect(
            during.grantedBy
                == EntitlementCandidate(
                    source: .nonRenewing, productID: "com.example.pass.30days", expiresAt: date(60), environment: .production))
        #expect(pro(passes, day: 5).grantedBy?.expiresAt == date(30), "the second pass is not bought yet")
        #expect(pro(passes, day: 12).grantedBy?.expiresAt == date(60))
        #expect(!pro(passes, day: 65).active, "between chains")
        #expect(pro(passes, day: 80).grantedBy?.expiresAt == date(100))
        #expect(!pro(passes, day: 100).active, "the end is excluded")
    }

    @Test func aRefundedPassLeavesTheStack() {
        let passes = [pass("1", day: 0), pass("2", day: 10, refundedDay: 12)]
        #expect(pro(passes, day: 11).grantedBy?.expiresAt == date(60), "before the refund both count")
        #expect(pro(passes, day: 20).grantedBy?.expiresAt == date(30))
        #expect(!pro(passes, day: 35).active)
    }

    @Test func theTrialProductGrantsForItsWindowOnly() {
        let trial = [purchase("1", "com.example.pro.trial", .nonConsumable, day: 0)]
        let active = pro(trial, day: 13)
        #expect(
            active.grantedBy
                == EntitlementCandidate(source: .trial, productID: "com.example.pro.trial", expiresAt: date(14), environment: .production))
        #expect(!pro(trial, day: 14).active)
        #expect(!pro(trial, day: 15).active)
        #expect(!pro(trial, day: -1).active, "not before its purchase")
        let refunded = [purchase("1", "com.example.pro.trial", .nonConsumable, day: 0, refundedDay: 2)]
        #expect(!pro(refunded, day: 3).active)
    }

    @Test func aTrialProductNeverCountsAsANonConsumable() {
        var catalog = Self.catalog
        catalog.entitlements = [SimEntitlement(id: "pro", productIDs: ["com.example.pro.trial", "com.example.coins.100"])]
        let state = CustomerState(purchases: [
            purchase("1", "com.example.pro.trial", .nonConsumable, day: 0),
            purchase("2", "com.example.coins.100", .consumable, day: 0),
        ])
        let facts = EntitlementFacts(app: Self.app, environment: .production, state: state, originalApplicationVersion: nil)
        let candidates = EntitlementRule.candidates(for: catalog.entitlements[0], facts: facts, catalog: catalog, at: date(1))
        #expect(candidates.map(\.source) == [.trial], "listed or not, the trial grants only as a trial; a consumable never")
        #expect(EntitlementRule.candidates(for: catalog.entitlements[0], facts: facts, catalog: catalog, at: date(20)).isEmpty)
    }

    @Test func aLifetimeUnlockLastsUntilRefunded() {
        let bought = [purchase("1", "com.example.pro.lifetime", .nonConsumable, day: -400)]
        #expect(
            pro(bought, day: 0).grantedBy
                == EntitlementCandidate(
                    source: .nonConsumable, productID: "com.example.pro.lifetime", expiresAt: nil, environment: .production))
        let refunded = [purchase("1", "com.example.pro.lifetime", .nonConsumable, day: -400, refundedDay: -300)]
        #expect(!pro(refunded, day: 0).active)
        #expect(pro(refunded, day: -350).active, "granted until the refund")
    }

    @Test func sandboxPurchasesCountOnlyWhenTheAppGrantsThem() {
        let bought = [purchase("1", "com.example.pro.lifetime", .nonConsumable, day: -1)]
        #expect(pro(bought, environment: .sandbox, day: 0).grantedBy?.environment == .sandbox)
        var ignoring = Self.app
        ignoring.sandboxEntitlement = .ignore
        #expect(!pro(bought, app: ignoring, environment: .sandbox, day: 0).active)
        #expect(pro(bought, app: ignoring, environment: .production, day: 0).active)
    }

    static let versions: [(String, String, Bool)] = [
        ("1.9", "2.0", true), ("2.0", "2.0", false), ("10.1", "2.0", false), ("1.10", "1.9", false),
        ("1.9", "1.10", true), ("2", "2.0.0", false), ("1.9.9", "2", true), ("01.5", "1.10", true),
        ("99999999999999999999", "100000000000000000000", true), ("2.0b", "3", false), ("", "2.0", false),
        ("1..2", "2", false), (" 1.0", "2", false), ("1.0", "2.x", false), ("-1", "2", false),
    ]

    @Test(arguments: versions)
    func versionsCompareAsDottedNumbers(version: String, before: String, lower: Bool) {
        #expect(AppVersion.isLower(version, than: before) == lower)
    }

    @Test func grandfatheringNeedsALowerVersionOfTheRulesApp() {
        let paidPro = { (app: SimApp, version: String?) -> EntitlementTruth in
            let facts = EntitlementFacts(app: app, environment: .sandbox, state: CustomerState(), originalApplicationVersion: version)
            return EntitlementRule.entitlements(of: facts, catalog: Self.catalog, at: fixedEnd).first { $0.id == "paid_pro" }!
        }
        #expect(
            paidPro(Self.paidApp, "1.9").grantedBy
                == EntitlementCandidate(source: .grandfathered, productID: nil, expiresAt: nil, environment: .sandbox))
        #expect(!paidPro(Self.paidApp, "2.0").active)
        #expect(!paidPro(Self.paidApp, "10.1").active)
        #expect(!paidPro(Self.paidApp, nil).active)
        #expect(!paidPro(Self.app, "1.9").active, "the demo app has no rule")
    }

    @Test func everyCatalogEntitlementAppearsInCatalogOrder() {
        let facts = EntitlementFacts(app: Self.app, environment: .production, state: CustomerState(), originalApplicationVersion: nil)
        let all = EntitlementRule.entitlements(of: facts, catalog: Self.catalog, at: fixedEnd)
        #expect(all.map(\.id) == ["pro", "news", "paid_pro"])
        #expect(all.allSatisfy { !$0.active && $0.grantedBy == nil })
    }

    @Test func theLongestLastingSourceWinsThenSourceOrderThenProductID() {
        let later = EntitlementCandidate(source: .trial, productID: "t", expiresAt: date(9), environment: .production)
        let sooner = EntitlementCandidate(source: .subscription, productID: "s", expiresAt: date(8), environment: .production)
        let forever = EntitlementCandidate(source: .grandfathered, productID: nil, expiresAt: nil, environment: .production)
        let lifetime = EntitlementCandidate(source: .nonConsumable, productID: "z", expiresAt: nil, environment: .production)
        let otherLifetime = EntitlementCandidate(source: .nonConsumable, productID: "a", expiresAt: nil, environment: .production)
        let sameEnd = EntitlementCandidate(source: .nonRenewing, productID: "p", expiresAt: date(9), environment: .production)
        #expect(EntitlementRule.choose([]) == nil)
        #expect(EntitlementRule.choose([sooner, later]) == later)
        #expect(EntitlementRule.choose([sooner, later, forever]) == forever)
        #expect(EntitlementRule.choose([forever, lifetime]) == lifetime)
        #expect(EntitlementRule.choose([lifetime, otherLifetime]) == otherLifetime)
        #expect(EntitlementRule.choose([later, sameEnd]) == sameEnd)
        #expect(
            EntitlementSource.allCases.map(\.rawValue) == [
                "subscription", "non_consumable", "non_renewing", "trial", "grandfathered", "grant",
            ])
        #expect(EntitlementSource.allCases.sorted() == EntitlementSource.allCases)
    }
}
