import AppStoreSimulator
import Foundation
import Testing

/// The scenarios of v2's later notification kinds: offers, refund reversals, Family Sharing
/// revocations, renewal extensions and expired grace periods, in both versions.
@Suite("Offers, reversals, revocations, extensions")
struct AppleActionScenarioTests {
    /// One production customer of the demo catalog in its own simulator (so that a v1 and a
    /// v2 run of the same name live the same life).
    func build(
        _ scenario: ScenarioKind, product: String, version: NotificationVersion, renewals: Int = 1
    ) throws -> (AppStoreSimulator, SimCustomer) {
        let simulator = makeSimulator()
        let spec = CustomerSpec(
            name: "x-\(scenario.rawValue)", scenario: scenario, productID: product,
            renewals: renewals, notificationVersion: version
        )
        return (simulator, try #require(try simulator.addCustomers([spec], endingAt: fixedEnd).first))
    }

    func decoded(_ customer: SimCustomer) throws -> [DecodedNotificationV2] {
        try customer.notifications.map(DecodedNotificationV2.init)
    }

    func truth(_ simulator: AppStoreSimulator, _ customer: SimCustomer, at date: Date = fixedEnd) throws -> SubscriptionTruth {
        try #require(simulator.truth(of: customer, at: date).subscriptions.first)
    }

    /// The verifyReceipt answer for `customer` at `date`.
    func verify(_ simulator: AppStoreSimulator, _ customer: SimCustomer, at date: Date) throws -> [String: Any] {
        let answer = simulator.verifyReceipt(body: try verifyBody(customer.receipt), endpoint: .production, at: date)
        #expect(answer.status == 0)
        return try jsonObject(answer.body)
    }

    func newestEntry(_ answer: [String: Any]) throws -> [String: Any] {
        try #require((answer["latest_receipt_info"] as? [[String: Any]])?.first)
    }

    @Test func offerCodeFirstPurchaseIsOfferRedeemedAndNoIntroOffer() throws {
        let (simulator, life) = try build(.offerCode, product: "com.example.pro.monthly", version: .v2)
        #expect(life.notifications.map(\.typeName) == ["OFFER_REDEEMED/INITIAL_BUY", "DID_RENEW"])
        let all = try decoded(life)
        let first = all[0].transaction
        #expect(first["offerType"] as? Int == 3)
        #expect(first["offerIdentifier"] as? String == "HALF-FIRST-PERIOD")
        #expect(first["offerDiscountType"] as? String == "PAY_AS_YOU_GO")
        #expect(first["price"] as? Int == 2_495)
        #expect(all[1].transaction["offerType"] == nil && all[1].transaction["offerIdentifier"] == nil)
        #expect(all[1].transaction["price"] as? Int == 4_990)

        let sub = try truth(simulator, life)
        #expect(sub.status == .active && !sub.inTrial && !sub.inIntroOffer)
        // The code was no introductory offer: once nothing is entitled, the trial is open.
        let after = sub.expiresAt.addingTimeInterval(1)
        #expect(simulator.truth(of: life, at: after).eligibility["com.example.pro.monthly"] == .eligible)
        #expect(simulator.truth(of: life, at: fixedEnd).eligibility["com.example.pro.monthly"] == .ineligible)

        let (v1Simulator, v1) = try build(.offerCode, product: "com.example.pro.monthly", version: .v1)
        #expect(types(v1) == ["INITIAL_BUY", "DID_RENEW"])
        let entries = try #require(try verify(v1Simulator, v1, at: fixedEnd)["latest_receipt_info"] as? [[String: Any]])
        #expect(entries.last?["offer_code_ref_name"] as? String == "HALF-FIRST-PERIOD")
        #expect(entries.last?["is_trial_period"] as? String == "false")
        #expect(entries.first?["offer_code_ref_name"] == nil)
        #expect(try truth(v1Simulator, v1) == sub)
    }

    @Test func promotionalOfferResubscribeIsOfferRedeemed() throws {
        let (simulator, life) = try build(.promotionalOffer, product: "com.example.pro.monthly", version: .v2)
        #expect(
            life.notifications.map(\.typeName) == [
                "SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED",
                "EXPIRED/VOLUNTARY", "OFFER_REDEEMED/RESUBSCRIBE",
            ])
        let last = try #require(try decoded(life).last)
        #expect(last.transaction["offerType"] as? Int == 2)
        #expect(last.transaction["offerIdentifier"] as? String == "comeback-half-price")
        #expect(last.transaction["offerDiscountType"] as? String == "PAY_UP_FRONT")
        #expect(last.transaction["transactionId"] as? String != last.transaction["originalTransactionId"] as? String)
        #expect(last.data["status"] as? Int == 1)
        let sub = try truth(simulator, life)
        #expect(sub.status == .active && sub.autoRenew && !sub.inIntroOffer)

        let (v1Simulator, v1) = try build(.promotionalOffer, product: "com.example.pro.monthly", version: .v1)
        #expect(types(v1) == ["INITIAL_BUY", "DID_RENEW", "DID_CHANGE_RENEWAL_STATUS", "INTERACTIVE_RENEWAL"])
        let body = try jsonObject(try #require(v1.notifications.last).body)
        let unified = try #require(body["unified_receipt"] as? [String: Any])
        let newest = try newestEntry(unified)
        #expect(newest["promotional_offer_id"] as? String == "comeback-half-price")
        #expect(newest["is_in_intro_offer_period"] as? String == "false")
        #expect(try truth(v1Simulator, v1) == sub)
    }

    @Test func refundReversedClearsTheRevocation() throws {
        let (simulator, life) = try build(.refundReversed, product: "com.example.pro.yearly", version: .v2, renewals: 0)
        #expect(life.notifications.map(\.typeName) == ["SUBSCRIBED/INITIAL_BUY", "REFUND", "REFUND_REVERSED"])
        let all = try decoded(life)
        #expect(all[1].transaction["revocationDate"] is Int)
        #expect(all[1].data["status"] as? Int == 5)
        let reversed = all[2]
        #expect(reversed.transaction["transactionId"] as? String == all[1].transaction["transactionId"] as? String)
        #expect(reversed.transaction["revocationDate"] == nil && reversed.transaction["revocationReason"] == nil)
        #expect(reversed.data["status"] as? Int == 1)
        #expect(reversed.renewal["autoRenewStatus"] as? Int == 1)
        let sub = try truth(simulator, life)
        #expect(sub.status == .active && sub.entitled && sub.revokedAt == nil && sub.revocationReason == nil && sub.autoRenew)
        // Between the refund and the reversal the truth was revoked.
        #expect(try truth(simulator, life, at: life.notifications[1].date).status == .revoked)

        let (v1Simulator, v1) = try build(.refundReversed, product: "com.example.pro.yearly", version: .v1, renewals: 0)
        #expect(types(v1) == ["INITIAL_BUY", "CANCEL"])
        let refunded = try newestEntry(try verify(v1Simulator, v1, at: v1.notifications[1].date))
        #expect(refunded["cancellation_date_ms"] is String)
        let answer = try verify(v1Simulator, v1, at: fixedEnd)
        let restored = try newestEntry(answer)
        #expect(restored["cancellation_date_ms"] == nil && restored["cancellation_reason"] == nil)
        #expect((answer["pending_renewal_info"] as? [[String: Any]])?.first?["auto_renew_status"] as? String == "1")
        #expect(try truth(v1Simulator, v1) == sub)
    }

    @Test func familySharingRevokeEndsRevoked() throws {
        let (simulator, life) = try build(.familyRevoke, product: "com.example.pro.monthly", version: .v2)
        #expect(life.notifications.map(\.typeName) == ["SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "REVOKE"])
        let all = try decoded(life)
        #expect(all.allSatisfy { $0.transaction["inAppOwnershipType"] as? String == "FAMILY_SHARED" })
        // A family member's access is no trial of their own.
        #expect(all[0].transaction["offerType"] == nil)
        let revoke = all[2]
        #expect(revoke.transaction["revocationDate"] as? Int == revoke.payload["signedDate"] as? Int)
        #expect(revoke.transaction["revocationReason"] as? Int == 0)
        #expect(revoke.data["status"] as? Int == 5)
        let sub = try truth(simulator, life)
        #expect(sub.status == .revoked && !sub.entitled && sub.revokedAt != nil && sub.revocationReason == "0")

        let (v1Simulator, v1) = try build(.familyRevoke, product: "com.example.pro.monthly", version: .v1)
        #expect(types(v1) == ["INITIAL_BUY", "DID_RENEW", "REVOKE"])
        let body = try jsonObject(try #require(v1.notifications.last).body)
        #expect(body["notification_type"] as? String == "REVOKE")
        let unified = try #require(body["unified_receipt"] as? [String: Any])
        let entries = try #require(unified["latest_receipt_info"] as? [[String: Any]])
        #expect(entries.allSatisfy { $0["in_app_ownership_type"] as? String == "FAMILY_SHARED" })
        #expect(entries.first?["cancellation_date_ms"] is String)
        #expect(entries.first?["cancellation_reason"] as? String == "0")
        #expect(try truth(v1Simulator, v1) == sub)
    }

    @Test func renewalExtendedMovesTheExpiry() throws {
        let (simulator, life) = try build(.renewalExtended, product: "com.example.pro.monthly", version: .v2, renewals: 0)
        // The trial is renewed out of first: Apple extends no offer periods.
        #expect(life.notifications.map(\.typeName) == ["SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "RENEWAL_EXTENDED"])
        let all = try decoded(life)
        let before = all[1].transaction
        let after = all[2].transaction
        #expect(after["transactionId"] as? String == before["transactionId"] as? String)
        #expect(after["offerType"] == nil)
        let moved = (after["expiresDate"] as? Int ?? 0) - (before["expiresDate"] as? Int ?? 0)
        #expect([7, 14, 30, 90].map { $0 * 86_400_000 }.contains(moved))
        #expect(all[2].renewal["renewalDate"] as? Int == after["expiresDate"] as? Int)
        #expect(all[2].payload["subtype"] == nil && all[2].data["status"] as? Int == 1)
        let sub = try truth(simulator, life)
        #expect(sub.status == .active && Int(sub.expiresAt.timeIntervalSince1970 * 1_000) == after["expiresDate"] as? Int)

        let (v1Simulator, v1) = try build(.renewalExtended, product: "com.example.pro.monthly", version: .v1, renewals: 0)
        #expect(types(v1) == ["INITIAL_BUY", "DID_RENEW"])
        let old = try newestEntry(try verify(v1Simulator, v1, at: v1.notifications[1].date))
        let new = try newestEntry(try verify(v1Simulator, v1, at: fixedEnd))
        #expect(new["transaction_id"] as? String == old["transaction_id"] as? String)
        let oldMs = Int(old["expires_date_ms"] as? String ?? "") ?? 0
        let newMs = Int(new["expires_date_ms"] as? String ?? "") ?? 0
        #expect(newMs - oldMs == moved)
        #expect(try truth(v1Simulator, v1) == sub)
    }

    @Test func gracePeriodExpiredIsBillingRetry() throws {
        let (simulator, life) = try build(.gracePeriodExpired, product: "com.example.pro.monthly", version: .v2)
        #expect(
            life.notifications.map(\.typeName) == [
                "SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "DID_FAIL_TO_RENEW/GRACE_PERIOD", "GRACE_PERIOD_EXPIRED",
            ])
        let last = try #require(try decoded(life).last)
        #expect(last.payload["subtype"] == nil)
        #expect(last.renewal["isInBillingRetryPeriod"] as? Bool == true)
        let graceEnd = try #require(last.renewal["gracePeriodExpiresDate"] as? Int)
        #expect(graceEnd < (last.payload["signedDate"] as? Int ?? 0))
        #expect(last.data["status"] as? Int == 3)
        let sub = try truth(simulator, life)
        #expect(sub.status == .billingRetry && !sub.entitled && sub.expirationIntent == .billingError)

        let (v1Simulator, v1) = try build(.gracePeriodExpired, product: "com.example.pro.monthly", version: .v1)
        #expect(types(v1) == ["INITIAL_BUY", "DID_RENEW", "DID_FAIL_TO_RENEW"])
        #expect(try truth(v1Simulator, v1) == sub)
    }

    @Test func randomV2AndMigratingCustomersCoverTheNewKinds() throws {
        for mix in [NotificationVersionMix.v2, .migrating] {
            let simulator = makeSimulator(seed: 11)
            let customers = try simulator.addRandomCustomers(200, sandboxShare: 0.25, notificationVersions: mix, endingAt: fixedEnd)
            let kinds = Set(customers.map(\.scenario))
            #expect(kinds == Set(ScenarioKind.allCases), "\(mix)")
            let names = Set(simulator.notifications().compactMap(\.typeV2?.notificationType))
            #expect(
                names.isSuperset(of: ["OFFER_REDEEMED", "REFUND_REVERSED", "REVOKE", "RENEWAL_EXTENDED", "GRACE_PERIOD_EXPIRED"]), "\(mix)")
            let truth = simulator.truth(at: fixedEnd)
            for customer in customers {
                #expect(truth.customer(customer.id)?.subscriptions.first?.status == customer.scenario.finalStatus, "\(customer.id)")
            }
        }
    }
}
