import AppStoreSimulator
import Foundation
import Testing

@Suite("Scenarios of one-time products and grandfathering: notifications and entitlements")
struct PurchaseScenarioTests {
    static let day: TimeInterval = 86_400

    /// Builds one customer in `simulator` (a fresh demo one by default) and returns it with its truth at the fixed end.
    private func run(_ spec: CustomerSpec, in simulator: AppStoreSimulator = makeSimulator()) throws -> (SimCustomer, CustomerTruth) {
        let customer = try #require(try simulator.addCustomers([spec], endingAt: fixedEnd).first)
        return (customer, simulator.truth(of: customer, at: fixedEnd))
    }

    private func v2Types(_ customer: SimCustomer) -> [String] {
        customer.notifications.compactMap { $0.typeV2?.description }
    }

    @Test func aLifetimeUnlockGrantsProForGood() throws {
        let (v1, truth) = try run(CustomerSpec(name: "life", scenario: .lifetime))
        #expect(v1.notifications.isEmpty, "v1 has no notification for a purchase: the app posts its receipt")
        #expect(truth.subscriptions.isEmpty && truth.purchases.map(\.productID) == ["com.example.pro.lifetime"])
        let pro = try #require(truth.entitlement("pro")?.grantedBy)
        #expect(
            pro
                == EntitlementCandidate(
                    source: .nonConsumable, productID: "com.example.pro.lifetime", expiresAt: nil, environment: .production))
        #expect(truth.entitlement("news")?.active == false && truth.entitlement("paid_pro")?.active == false)
        #expect(truth.activeEntitlements == ["pro:non_consumable"])
        let (v2, _) = try run(CustomerSpec(name: "life", scenario: .lifetime, notificationVersion: .v2))
        #expect(v2Types(v2) == ["ONE_TIME_CHARGE"])
    }

    @Test func aRefundedUnlockGrantsNothing() throws {
        let (v1, truth) = try run(CustomerSpec(name: "refunded", scenario: .lifetimeRefund))
        #expect(types(v1) == ["REFUND"])
        #expect(truth.activeEntitlements.isEmpty)
        #expect(truth.purchases.first?.cancellationDate != nil)
        let (v2, v2Truth) = try run(CustomerSpec(name: "refunded", scenario: .lifetimeRefund, notificationVersion: .v2))
        #expect(v2Types(v2) == ["ONE_TIME_CHARGE", "REFUND"])
        #expect(v2Truth.entitlements == truth.entitlements)
    }

    @Test(arguments: [SimEnvironment.production, .sandbox])
    func passesStackInRealDays(environment: SimEnvironment) throws {
        let (customer, truth) = try run(CustomerSpec(name: "passes", scenario: .passesStack, environment: environment))
        let purchases = customer.state(at: fixedEnd).purchases
        #expect(purchases.count == 2)
        let first = try #require(purchases.first?.purchaseDate)
        #expect(purchases[1].purchaseDate.timeIntervalSince(first) == 10 * Self.day)
        // 25 days (and the few seconds of the end's jitter) before the end.
        #expect((25 * Self.day...25 * Self.day + 91).contains(fixedEnd.timeIntervalSince(first)))
        let pro = try #require(truth.entitlement("pro")?.grantedBy)
        #expect(
            pro
                == EntitlementCandidate(
                    source: .nonRenewing, productID: "com.example.pass.30days", expiresAt: first.addingTimeInterval(60 * Self.day),
                    environment: environment
                ))
        #expect(customer.notifications.isEmpty)
    }

    @Test func aProratedRefundShortensTheStack() throws {
        let (customer, truth) = try run(CustomerSpec(name: "prorated", scenario: .passRefunded, notificationVersion: .v2))
        let purchases = customer.state(at: fixedEnd).purchases
        #expect(purchases.map { $0.cancellationDate != nil } == [false, true] && purchases[1].proratedRefund)
        #expect(truth.entitlement("pro")?.grantedBy?.expiresAt == purchases[0].purchaseDate.addingTimeInterval(30 * Self.day))
        #expect(v2Types(customer) == ["ONE_TIME_CHARGE", "ONE_TIME_CHARGE", "REFUND"])
        let refund = try DecodedNotificationV2(try #require(customer.notifications.last))
        #expect(refund.transaction["revocationType"] as? String == "REFUND_PRORATED")
    }

    @Test func anOldPassAndAnEndedTrialGrantNothing() throws {
        let (pass, passTruth) = try run(CustomerSpec(name: "old-pass", scenario: .passExpired))
        let bought = try #require(pass.state(at: fixedEnd).purchases.first?.purchaseDate)
        #expect(fixedEnd.timeIntervalSince(bought) >= 40 * Self.day)
        #expect(passTruth.activeEntitlements.isEmpty)
        let (trial, trialTruth) = try run(CustomerSpec(name: "old-trial", scenario: .trialProductEnded))
        let tried = try #require(trial.state(at: fixedEnd).purchases.first?.purchaseDate)
        #expect(fixedEnd.timeIntervalSince(tried) >= 15 * Self.day)
        #expect(trialTruth.activeEntitlements.isEmpty)
    }

    @Test func theTrialProductGrantsFourteenDays() throws {
        let (customer, truth) = try run(CustomerSpec(name: "trial", scenario: .trialProduct, environment: .sandbox))
        let bought = try #require(customer.state(at: fixedEnd).purchases.first)
        #expect(bought.productID == "com.example.pro.trial")
        #expect((13 * Self.day...13 * Self.day + 91).contains(fixedEnd.timeIntervalSince(bought.purchaseDate)))
        #expect(
            truth.entitlement("pro")?.grantedBy
                == EntitlementCandidate(
                    source: .trial, productID: "com.example.pro.trial", expiresAt: bought.purchaseDate.addingTimeInterval(14 * Self.day),
                    environment: .sandbox
                ))
    }

    @Test func coinsAreAPurchaseThatGrantsNothing() throws {
        let (customer, truth) = try run(CustomerSpec(name: "coins", scenario: .consumable, notificationVersion: .v2))
        #expect(truth.purchases.map(\.kind) == [.consumable])
        #expect(truth.activeEntitlements.isEmpty && truth.entitlements.count == 3)
        let charge = try DecodedNotificationV2(try #require(customer.notifications.first))
        #expect(charge.transaction["type"] as? String == "Consumable")
    }

    @Test func aSubscriberWithALifetimeUnlockHasBothAndTheUnlockWins() throws {
        let simulator = makeSimulator()
        let (customer, truth) = try run(
            CustomerSpec(name: "both", scenario: .lifetimeAndSubscription, productID: "com.example.pro.monthly", renewals: 1), in: simulator
        )
        #expect(truth.subscriptions.first?.status == .active)
        #expect(truth.entitlement("pro")?.grantedBy?.source == .nonConsumable)
        let facts = EntitlementFacts(
            app: simulator.configuration.apps[0], environment: .production, state: customer.state(at: fixedEnd),
            originalApplicationVersion: "1.0"
        )
        let pro = try #require(simulator.configuration.catalog.entitlement("pro"))
        let candidates = EntitlementRule.candidates(for: pro, facts: facts, catalog: simulator.configuration.catalog, at: fixedEnd)
        #expect(Set(candidates.map(\.source)) == [.subscription, .nonConsumable])
        let subscription = try #require(candidates.first { $0.source == .subscription })
        #expect(subscription.productID == "com.example.pro.monthly" && subscription.expiresAt == truth.subscriptions.first?.expiresAt)
        #expect(types(customer) == ["INITIAL_BUY", "DID_RENEW"])
    }

    @Test func paidAppCustomersBeforeTwoPointZeroAreGrandfathered() throws {
        let paidApp = SimulatorConfiguration.demoPaidAppBundleID
        let (old, oldTruth) = try run(CustomerSpec(name: "old", scenario: .grandfathered, bundleID: paidApp))
        #expect(old.originalApplicationVersion == "1.9" && old.notifications.isEmpty && oldTruth.subscriptions.isEmpty)
        #expect(
            oldTruth.entitlement("paid_pro")?.grantedBy
                == EntitlementCandidate(source: .grandfathered, productID: nil, expiresAt: nil, environment: .production))
        #expect(oldTruth.activeEntitlements == ["paid_pro:grandfathered"])

        let (new, newTruth) = try run(CustomerSpec(name: "new", scenario: .notGrandfathered, bundleID: paidApp))
        #expect(["2.0", "10.1"].contains(new.originalApplicationVersion))
        #expect(newTruth.activeEntitlements.isEmpty)
        let (tenOne, tenOneTruth) = try run(
            CustomerSpec(name: "ten", scenario: .notGrandfathered, bundleID: paidApp, originalApplicationVersion: "10.1"))
        #expect(tenOne.originalApplicationVersion == "10.1" && tenOneTruth.activeEntitlements.isEmpty)

        let (_, subscriber) = try run(
            CustomerSpec(
                name: "sub", scenario: .trialRenews, bundleID: paidApp, renewals: 0, originalApplicationVersion: "2.0"
            ))
        #expect(subscriber.entitlement("paid_pro")?.grantedBy?.source == .subscription)
        let (_, both) = try run(
            CustomerSpec(
                name: "both", scenario: .trialRenews, bundleID: paidApp, renewals: 0, originalApplicationVersion: "1.9"
            ))
        #expect(both.entitlement("paid_pro")?.grantedBy?.source == .grandfathered, "for good beats any date")
        #expect(throws: SimulatorError.self) { try run(CustomerSpec(name: "x", scenario: .grandfathered)) }
    }

    @Test func theTruthDoesNotDependOnTheNotificationVersion() throws {
        let kinds = ScenarioKind.allCases.filter { !ScenarioKind.subscriptionLifecycles.contains($0) }
        #expect(kinds.count == 11)
        for kind in kinds {
            let paidApp = kind == .grandfathered || kind == .notGrandfathered
            let truths = try [NotificationVersion.v1, .v2, .migrating].map { version in
                try run(
                    CustomerSpec(
                        name: "same-\(kind.rawValue)", scenario: kind, bundleID: paidApp ? SimulatorConfiguration.demoPaidAppBundleID : nil,
                        renewals: 1, notificationVersion: version
                    )
                ).1
            }
            #expect(truths.allSatisfy { $0.entitlements == truths[0].entitlements && $0.purchases == truths[0].purchases }, "\(kind)")
        }
    }

    @Test func randomCustomersCoverEveryAppAndThePurchaseScenarios() throws {
        let simulator = makeSimulator(seed: 8)
        let customers = try simulator.addRandomCustomers(300, notificationVersions: .mixed, endingAt: fixedEnd)
        #expect(Set(customers.map(\.scenario)) == Set(ScenarioKind.allCases))
        #expect(Set(customers.map(\.bundleID)) == ["com.example.app", "com.example.paidapp"])
        let paid = customers.filter { $0.bundleID == "com.example.paidapp" }
        #expect(Set(paid.map(\.originalApplicationVersion)) == ["1.9", "2.0", "10.1"])
        #expect(paid.allSatisfy { ($0.signedAppTransaction != nil) == ($0.spec.notificationVersion != .v1) })
        #expect(
            customers.filter { $0.bundleID == "com.example.app" }.allSatisfy {
                $0.originalApplicationVersion == "1.0" && $0.signedAppTransaction == nil
            })
        let only = try makeSimulator(seed: 8).addRandomCustomers(100, scenarios: ScenarioKind.subscriptionLifecycles, endingAt: fixedEnd)
        #expect(only.allSatisfy { ScenarioKind.subscriptionLifecycles.contains($0.scenario) })
        let ids = customers.flatMap {
            $0.state(at: fixedEnd).purchases.map(\.transactionID) + $0.state(at: fixedEnd).transactions.map(\.transactionID)
        }
        #expect(Set(ids).count == ids.count)
    }

    @Test func demoCustomersAreAllPlayable() throws {
        let simulator = makeSimulator()
        let customers = try simulator.addDemoCustomers(notificationVersions: .mixed, endingAt: fixedEnd)
        #expect(customers.count == CustomerSpec.demo.count)
        let truth = simulator.truth(at: fixedEnd)
        #expect(truth.customer("pam-lifetime")?.activeEntitlements == ["pro:non_consumable"])
        #expect(truth.customer("yara-paid-1.9")?.activeEntitlements == ["paid_pro:grandfathered"])
        #expect(truth.customer("zack-paid-2.0")?.activeEntitlements == [])
        #expect(truth.customer("abby-paid-10.1-subscribes")?.activeEntitlements == ["paid_pro:subscription"])
        let single = AppStoreSimulator(configuration: .demo(paidApp: false))
        #expect(try single.addDemoCustomers(endingAt: fixedEnd).allSatisfy { $0.bundleID == "com.example.app" })
    }
}
