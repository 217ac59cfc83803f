import AppStoreSimulator
import Foundation
import Testing

@Suite("v1 notification bodies")
struct NotificationFormatTests {
    @Test func bodiesLookLikeApples() throws {
        let simulator = makeSimulator()
        let customer = try simulator.addCustomers(
            [
                CustomerSpec(name: "n", scenario: .cancelExpire, productID: "com.example.pro.monthly", renewals: 1)
            ], endingAt: fixedEnd)[0]
        let bodies = try customer.notifications.map { try jsonObject($0.body) }
        for body in bodies {
            #expect(body["password"] as? String == "s3cret")
            #expect(body["environment"] as? String == "PROD")
            #expect(body["bid"] as? String == "com.example.app")
            #expect(body["bvrs"] is String)
            #expect(body["auto_renew_product_id"] as? String == "com.example.pro.monthly")
            #expect((body["auto_renew_status_change_date_ms"] as? String).flatMap(Int64.init) != nil)
            let unified = try #require(body["unified_receipt"] as? [String: Any])
            #expect(unified["environment"] as? String == "Production")
            #expect(unified["status"] as? Int == 0)
            #expect(unified["latest_receipt"] is String)
            #expect(unified["latest_receipt_info"] is [[String: Any]])
            #expect((unified["pending_renewal_info"] as? [Any])?.count == 1)
        }
        #expect(bodies.map { $0["auto_renew_status"] as? String } == ["true", "true", "false"])
        #expect(bodies.map { $0["notification_type"] as? String } == ["INITIAL_BUY", "DID_RENEW", "DID_CHANGE_RENEWAL_STATUS"])
    }

    @Test func theReceiptInANotificationVerifies() throws {
        let simulator = makeSimulator()
        let customer = try simulator.addCustomers(
            [CustomerSpec(name: "v", scenario: .trialRenews, environment: .sandbox)], endingAt: fixedEnd)[0]
        let body = try jsonObject(customer.notifications[0].body)
        #expect(body["environment"] as? String == "Sandbox")
        let receipt = try #require((body["unified_receipt"] as? [String: Any])?["latest_receipt"] as? String)
        let answer = simulator.verifyReceipt(body: try verifyBody(receipt), endpoint: .sandbox, at: fixedEnd)
        #expect(answer.status == 0)
    }

    @Test func failedRenewalCarriesRetryAndGrace() throws {
        let simulator = makeSimulator()
        let customer = try simulator.addCustomers(
            [
                CustomerSpec(name: "g", scenario: .gracePeriod, productID: "com.example.news.weekly", renewals: 0)
            ], endingAt: fixedEnd)[0]
        let failure = try jsonObject(try #require(customer.notifications.last).body)
        #expect(failure["notification_type"] as? String == "DID_FAIL_TO_RENEW")
        #expect(failure["expiration_intent"] as? Int == 2)
        let renewal = try #require(((failure["unified_receipt"] as? [String: Any])?["pending_renewal_info"] as? [[String: Any]])?.first)
        #expect(renewal["is_in_billing_retry_period"] as? String == "1")
        let graceEnd = try #require((renewal["grace_period_expires_date_ms"] as? String).flatMap(Double.init))
        let info = try #require(((failure["unified_receipt"] as? [String: Any])?["latest_receipt_info"] as? [[String: Any]])?.first)
        let expires = try #require((info["expires_date_ms"] as? String).flatMap(Double.init))
        #expect(graceEnd - expires == 6 * 86_400_000)  // weekly products get Apple's 6-day grace period
        #expect(info["is_in_intro_offer_period"] as? String == "true")
    }

    @Test func cancelCarriesTheCancellationDate() throws {
        let simulator = makeSimulator()
        let customer = try simulator.addCustomers([CustomerSpec(name: "c", scenario: .refund, renewals: 1)], endingAt: fixedEnd)[0]
        let cancel = try jsonObject(try #require(customer.notifications.last).body)
        #expect(cancel["notification_type"] as? String == "CANCEL")
        #expect(cancel["auto_renew_status"] as? String == "false")
        let newest = try #require(((cancel["unified_receipt"] as? [String: Any])?["latest_receipt_info"] as? [[String: Any]])?.first)
        #expect((newest["cancellation_date_ms"] as? String).flatMap(Int64.init) != nil)
    }
}
