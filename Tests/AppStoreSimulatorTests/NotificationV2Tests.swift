import AppStoreSimulator
import Crypto
import Foundation
import Testing

@Suite("Version 2 notifications")
struct NotificationV2Tests {
    /// One production v2 customer of the demo catalog.
    func customer(
        _ scenario: ScenarioKind, product: String, target: String? = nil, renewals: Int = 1, token: String? = nil
    ) throws -> SimCustomer {
        let spec = CustomerSpec(
            name: "v2-\(scenario.rawValue)", scenario: scenario, productID: product, targetProductID: target,
            renewals: renewals, notificationVersion: .v2, appAccountToken: token
        )
        return try #require(try makeSimulator().addCustomers([spec], endingAt: fixedEnd).first)
    }

    func decoded(_ customer: SimCustomer) throws -> [DecodedNotificationV2] {
        try customer.notifications.map(DecodedNotificationV2.init)
    }

    @Test func trialPurchaseIsSubscribedWithAFreeTrialOffer() throws {
        let token = "5b1e1c4a-3d0f-4a57-9b0e-2f1c3a4b5c6d"
        let life = try customer(.trialRenews, product: "com.example.pro.monthly", renewals: 0, token: token)
        let first = try #require(try decoded(life).first)
        #expect(first.payload["notificationType"] as? String == "SUBSCRIBED")
        #expect(first.payload["subtype"] as? String == "INITIAL_BUY")
        #expect(first.payload["version"] as? String == "2.0")
        #expect(first.payload["signedDate"] as? Int == Int(life.notifications[0].date.timeIntervalSince1970 * 1_000))
        #expect(first.data["appAppleId"] as? Int == 1_234_567_890)
        #expect(first.data["bundleId"] as? String == "com.example.app")
        #expect(first.data["environment"] as? String == "Production")
        #expect(first.data["status"] as? Int == 1)
        let t = first.transaction
        #expect(t["offerType"] as? Int == 1)
        #expect(t["offerDiscountType"] as? String == "FREE_TRIAL")
        #expect(t["price"] as? Int == 0)
        #expect(t["transactionReason"] as? String == "PURCHASE")
        #expect(t["type"] as? String == "Auto-Renewable Subscription")
        #expect(t["appAccountToken"] as? String == token)
        #expect(t["transactionId"] as? String == t["originalTransactionId"] as? String)
        #expect((t["expiresDate"] as? Int ?? 0) > (t["purchaseDate"] as? Int ?? .max))
        #expect(first.renewal["autoRenewStatus"] as? Int == 1)
        #expect(first.renewal["isInBillingRetryPeriod"] == nil)
        #expect(first.renewal["autoRenewProductId"] as? String == "com.example.pro.monthly")
    }

    @Test func renewalIsDidRenewAtFullPrice() throws {
        let life = try customer(.trialRenews, product: "com.example.pro.monthly", renewals: 2)
        let all = try decoded(life)
        #expect(all.map { $0.payload["notificationType"] as? String } == ["SUBSCRIBED", "DID_RENEW", "DID_RENEW"])
        let last = try #require(all.last)
        #expect(last.payload["subtype"] == nil)
        #expect(last.transaction["transactionReason"] as? String == "RENEWAL")
        #expect(last.transaction["price"] as? Int == 4_990)
        #expect(last.transaction["currency"] as? String == "USD")
        #expect(last.transaction["offerType"] == nil)
        #expect(last.transaction["appAccountToken"] == nil)
        #expect(last.transaction["originalTransactionId"] as? String == all[0].transaction["transactionId"] as? String)
        #expect(last.renewal["renewalDate"] as? Int == last.transaction["expiresDate"] as? Int)
        #expect(last.renewal["recentSubscriptionStartDate"] as? Int == all[0].transaction["purchaseDate"] as? Int)
    }

    @Test func refundIsRefundWithRevocation() throws {
        let life = try customer(.refund, product: "com.example.pro.yearly", renewals: 0)
        let last = try #require(try decoded(life).last)
        #expect(last.payload["notificationType"] as? String == "REFUND")
        #expect(last.data["status"] as? Int == 5)
        #expect(last.transaction["revocationDate"] as? Int == last.payload["signedDate"] as? Int)
        #expect([0, 1].contains(last.transaction["revocationReason"] as? Int))
        #expect(last.renewal["autoRenewStatus"] as? Int == 0)
        // The refunded period was the pay-up-front offer.
        #expect(last.transaction["offerDiscountType"] as? String == "PAY_UP_FRONT")
        #expect(last.transaction["price"] as? Int == 9_990)
    }

    @Test func upgradeIsRenewalPreferenceUpgradeOnTheNewProduct() throws {
        let life = try customer(.upgrade, product: "com.example.pro.monthly", target: "com.example.premium.monthly")
        let last = try #require(try decoded(life).last)
        #expect(last.payload["notificationType"] as? String == "DID_CHANGE_RENEWAL_PREF")
        #expect(last.payload["subtype"] as? String == "UPGRADE")
        #expect(last.transaction["productId"] as? String == "com.example.premium.monthly")
        #expect(last.transaction["transactionReason"] as? String == "PURCHASE")
        #expect(last.renewal["autoRenewProductId"] as? String == "com.example.premium.monthly")
        #expect(last.data["status"] as? Int == 1)
    }

    @Test func v1SilentEndsAreExpiredInV2() throws {
        let lapsed = try decoded(try customer(.cancelExpire, product: "com.example.pro.monthly"))
        #expect(
            lapsed.map(\.payload).suffix(2).map { "\($0["notificationType"] ?? "")/\($0["subtype"] ?? "")" }
                == ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "EXPIRED/VOLUNTARY"])
        #expect(lapsed.last?.data["status"] as? Int == 2)
        #expect(lapsed.last?.renewal["expirationIntent"] as? Int == 1)

        let retried = try decoded(try customer(.billingRetryExpire, product: "com.example.premium.monthly"))
        #expect(retried.suffix(2).map { $0.payload["notificationType"] as? String } == ["DID_FAIL_TO_RENEW", "EXPIRED"])
        #expect(retried.last?.payload["subtype"] as? String == "BILLING_RETRY")
        #expect(retried.last?.renewal["expirationIntent"] as? Int == 2)

        let grace = try decoded(try customer(.gracePeriod, product: "com.example.pro.monthly"))
        #expect(grace.last?.payload["subtype"] as? String == "GRACE_PERIOD")
        #expect(grace.last?.data["status"] as? Int == 4)
        #expect(grace.last?.renewal["gracePeriodExpiresDate"] is Int)
        #expect(grace.last?.renewal["isInBillingRetryPeriod"] as? Bool == true)

        let recovered = try decoded(try customer(.graceRecovery, product: "com.example.pro.monthly"))
        #expect(recovered.last?.payload["notificationType"] as? String == "DID_RENEW")
        #expect(recovered.last?.payload["subtype"] as? String == "BILLING_RECOVERY")
    }

    @Test func notificationUUIDsAreStablePerSeedAndUnique() throws {
        func uuids(seed: UInt64) throws -> [String] {
            let simulator = makeSimulator(seed: seed)
            try simulator.addRandomCustomers(30, notificationVersions: .v2, endingAt: fixedEnd)
            return simulator.notifications().compactMap(\.notificationUUID)
        }
        let first = try uuids(seed: 7)
        #expect(first.count > 30)
        #expect(try uuids(seed: 7) == first)
        #expect(Set(first).count == first.count)
        #expect(Set(try uuids(seed: 8)).isDisjoint(with: first))
        let pattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
        #expect(first.allSatisfy { $0.wholeMatch(of: pattern) != nil })
    }

    @Test func mixedGivesBothVersionsAndMigratingSwitches() throws {
        let simulator = makeSimulator()
        try simulator.addRandomCustomers(40, notificationVersions: .mixed, endingAt: fixedEnd)
        let versions = Set(simulator.notifications().map(\.version))
        #expect(versions == [.v1, .v2])
        let kinds = Set(simulator.customers.map(\.spec.notificationVersion))
        #expect(kinds == [.v1, .v2, .migrating])
        var switched = 0
        // A customer who bought nothing (grandfathered by the app version alone) gets no notification in any version.
        for customer in simulator.customers where customer.spec.notificationVersion == .migrating && !customer.notifications.isEmpty {
            let sequence = customer.notifications.map(\.version)
            #expect(sequence.last == .v2, "\(customer.id) \(customer.scenario)")
            #expect(!zip(sequence, sequence.dropFirst()).contains { $0 == .v2 && $1 == .v1 }, "\(customer.id)")
            if sequence.first == .v1 { switched += 1 }
        }
        #expect(switched > 0)
    }

    @Test func v1CustomersAreUnchangedByTheVersionOption() throws {
        let plain = makeSimulator()
        try plain.addRandomCustomers(20, endingAt: fixedEnd)
        let mixed = makeSimulator()
        try mixed.addRandomCustomers(20, notificationVersions: .mixed, endingAt: fixedEnd)
        for (a, b) in zip(plain.customers, mixed.customers) where b.spec.notificationVersion == .v1 {
            #expect(a.notifications.map(\.body) == b.notifications.map(\.body), "\(a.id)")
        }
        // The truth does not depend on the version.
        let truthA = plain.truth(at: fixedEnd).customers.map(\.subscriptions)
        let truthB = mixed.truth(at: fixedEnd).customers.map(\.subscriptions)
        #expect(truthA == truthB)
    }

    @Test func appAccountTokensForAboutHalfAndInTheTruth() throws {
        let simulator = makeSimulator()
        try simulator.addRandomCustomers(60, endingAt: fixedEnd)
        let tokens = simulator.customers.compactMap(\.spec.appAccountToken)
        #expect((15...45).contains(tokens.count))
        #expect(Set(tokens).count == tokens.count)
        #expect(tokens.allSatisfy { $0 == $0.lowercased() && UUID(uuidString: $0) != nil })
        let truth = simulator.truth(at: fixedEnd)
        let withToken = try #require(simulator.customers.first { $0.spec.appAccountToken != nil })
        #expect(truth.customer(withToken.id)?.appAccountToken == withToken.spec.appAccountToken)
        let json = try jsonObject(Array(truth.jsonText(pretty: false).utf8))
        let entries = json["customers"] as? [[String: Any]] ?? []
        #expect(entries.compactMap { $0["app_account_token"] as? String }.sorted() == tokens.sorted())
    }

    @Test func testNotificationIsSignedAndCounts() throws {
        let simulator = makeSimulator()
        let first = try simulator.testNotification(at: fixedEnd)
        let second = try simulator.testNotification(at: fixedEnd)
        let decoded = try DecodedNotificationV2(first)
        #expect(decoded.payload["notificationType"] as? String == "TEST")
        #expect(decoded.data["environment"] as? String == "Sandbox")
        #expect(decoded.data["signedTransactionInfo"] == nil)
        #expect(decoded.outer.verifies(with: try simulator.signingPKI().leaf.key.publicKey))
        #expect(first.notificationUUID != second.notificationUUID)
    }
}
