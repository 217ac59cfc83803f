import AppStoreSimulator
import Foundation
import Testing

@Suite("Durations, catalog and eligibility")
struct FormatTests {
    static let durations: [(String, Double)] = [
        ("P1M", 2_592_000), ("P1W", 604_800), ("P3D", 259_200), ("P1Y", 31_536_000), ("PT12H", 43_200),
    ]

    @Test(arguments: durations)
    func isoDurations(text: String, seconds: Double) throws {
        let duration = try #require(ISODuration(text))
        #expect(duration.approximateSeconds == seconds)
        #expect(ISODuration(duration.description) == duration)
    }

    @Test(arguments: ["", "1M", "P", "PXM", "P1M2", "P0D"])
    func badDurations(text: String) {
        #expect(ISODuration(text) == nil)
    }

    @Test func catalogFileLoadsSubscriptionsOnly() throws {
        let json = """
            {"products": [
              {"product_id": "a.monthly", "bundle_id": "a", "type": "auto_renewable", "subscription_group_id": "1",
               "period": "P1M", "intro_offer": {"payment_mode": "free_trial", "period": "P1W", "periods": 1, "price": "0.00"}},
              {"product_id": "a.coins", "bundle_id": "a", "type": "consumable"},
              {"product_id": "a.gold", "bundle_id": "a", "type": "auto_renewable", "subscription_group_id": "1", "period": "P1Y", "level": 1}
            ]}
            """
        let catalog = try ProductCatalog(json: Array(json.utf8))
        #expect(catalog.products.map(\.productID) == ["a.monthly", "a.gold"])
        #expect(catalog.product("a.monthly")?.introOffer?.paymentMode == .freeTrial)
        let configuration = try SimulatorConfiguration(catalog: catalog, secrets: ["a": "x"])
        #expect(configuration.apps.map(\.bundleID) == ["a"])
        #expect(throws: SimulatorError.self) { try SimulatorConfiguration(catalog: catalog, secrets: [:]) }
        #expect(try SimulatorConfiguration.parseSecrets(["a=b=c"]) == ["a": "b=c"])
    }

    @Test func eligibilityFollowsApplesRule() throws {
        let simulator = makeSimulator()
        let customers = try simulator.addCustomers(
            [
                CustomerSpec(name: "lapsed-no-offer", scenario: .cancelExpire, productID: "com.example.premium.monthly", renewals: 1),
                CustomerSpec(name: "active-no-offer", scenario: .trialRenews, productID: "com.example.premium.monthly", renewals: 1),
            ], endingAt: fixedEnd)
        let lapsed = simulator.truth(of: customers[0], at: fixedEnd).eligibility
        #expect(lapsed["com.example.pro.monthly"] == .eligible)
        let active = simulator.truth(of: customers[1], at: fixedEnd).eligibility
        #expect(active["com.example.pro.monthly"] == .ineligible)
        #expect(active["com.example.news.weekly"] == .eligible)
        #expect(CustomerState().eligibility(for: nil, at: fixedEnd) == .unknownProduct)
    }

    @Test func truthJSONUsesDesignFieldNames() throws {
        let simulator = makeSimulator()
        try simulator.addDemoCustomers(endingAt: fixedEnd)
        let report = simulator.truth(at: fixedEnd)
        #expect(report.customers.count == CustomerSpec.demo.count)
        let json = try jsonObject(Array(report.jsonText(pretty: true).utf8))
        let first = try #require((json["customers"] as? [[String: Any]])?.first)
        #expect(first["app_user_id"] as? String == "alice-trial-renews")
        let sub = try #require((first["subscriptions"] as? [[String: Any]])?.first)
        for key in [
            "original_transaction_id", "status", "entitled", "expires_at", "auto_renew", "expiration_intent", "grace_period_expires_at",
            "revoked_at",
        ] {
            #expect(sub.keys.contains(key), "\(key)")
        }
        #expect((sub["expires_at"] as? String)?.hasSuffix("Z") == true)
        #expect(first["entitled_groups"] as? [String] == ["20500000"])
    }
}
