import AppStoreSimulator
import Foundation
import Testing

@Suite("verifyReceipt over HTTP")
struct VerifyReceiptServerTests {
    private let digits = CharacterSet.decimalDigits

    private func isMillis(_ value: Any?) -> Bool {
        guard let text = value as? String else { return false }
        return !text.isEmpty && text.unicodeScalars.allSatisfy(digits.contains)
    }

    @Test func statusZeroUsesApplesExactFormats() async throws {
        let simulator = makeSimulator()
        let customer = try simulator.addCustomers([
            CustomerSpec(name: "grace", scenario: .gracePeriod, productID: "com.example.pro.monthly", renewals: 1)
        ])[0]
        try await withServer(simulator) { server in
            let (status, json) = try await post(server.productionURL, try verifyBody(customer.receipt))
            #expect(status == 200)
            #expect(json["status"] as? Int == 0)
            #expect(json["environment"] as? String == "Production")
            let receipt = try #require(json["receipt"] as? [String: Any])
            #expect(receipt["bundle_id"] as? String == "com.example.app")
            #expect(receipt["original_application_version"] as? String == "1.0")
            #expect((receipt["in_app"] as? [Any])?.count == 2)
            let latestReceipt = try #require(json["latest_receipt"] as? String)
            #expect(latestReceipt != customer.receipt)

            let info = try #require(json["latest_receipt_info"] as? [[String: Any]])
            #expect(info.count == 2)
            let newest = info[0]
            for key in [
                "purchase_date_ms", "expires_date_ms", "original_purchase_date_ms", "transaction_id", "original_transaction_id",
                "web_order_line_item_id",
            ] {
                #expect(isMillis(newest[key]), "\(key) must be a numeric string")
            }
            #expect((newest["purchase_date_ms"] as! String) > (info[1]["purchase_date_ms"] as! String))
            #expect((newest["expires_date"] as? String)?.hasSuffix(" Etc/GMT") == true)
            #expect((newest["expires_date_pst"] as? String)?.hasSuffix(" America/Los_Angeles") == true)
            #expect(newest["is_trial_period"] as? String == "false")
            #expect(newest["is_in_intro_offer_period"] as? String == "false")
            #expect(info[1]["is_trial_period"] as? String == "true")
            #expect(newest["quantity"] as? String == "1")
            #expect(newest["in_app_ownership_type"] as? String == "PURCHASED")
            #expect(newest["subscription_group_identifier"] as? String == "20500000")
            #expect(newest["cancellation_date_ms"] == nil && newest["is_upgraded"] == nil)

            let renewal = try #require((json["pending_renewal_info"] as? [[String: Any]])?.first)
            #expect(renewal["auto_renew_status"] as? String == "1")
            #expect(renewal["expiration_intent"] as? String == "2")
            #expect(renewal["is_in_billing_retry_period"] as? String == "1")
            #expect(isMillis(renewal["grace_period_expires_date_ms"]))
            #expect(renewal["grace_period_expires_date_pst"] is String)
        }
    }

    @Test func refundedAndUpgradedTransactionsCarryTheirMarks() async throws {
        let simulator = makeSimulator()
        let customers = try simulator.addCustomers([
            CustomerSpec(name: "refunded", scenario: .refund, productID: "com.example.pro.yearly", renewals: 0),
            CustomerSpec(name: "upgraded", scenario: .upgrade, productID: "com.example.pro.monthly", renewals: 0),
        ])
        try await withServer(simulator) { server in
            let refunded = try await post(server.productionURL, try verifyBody(customers[0].receipt)).json
            let refundedInfo = try #require((refunded["latest_receipt_info"] as? [[String: Any]])?.first)
            #expect(isMillis(refundedInfo["cancellation_date_ms"]))
            #expect(["0", "1"].contains(refundedInfo["cancellation_reason"] as? String ?? ""))
            #expect(refundedInfo["is_in_intro_offer_period"] as? String == "true")

            let upgraded = try await post(server.productionURL, try verifyBody(customers[1].receipt)).json
            let info = try #require(upgraded["latest_receipt_info"] as? [[String: Any]])
            #expect(info[0]["product_id"] as? String == "com.example.premium.monthly")
            #expect(info[1]["is_upgraded"] as? String == "true")
            #expect(info[1]["cancellation_reason"] == nil)
        }
    }

    @Test func excludeOldTransactionsKeepsTheNewestPerSubscription() async throws {
        let simulator = makeSimulator()
        let customer = try simulator.addCustomers([CustomerSpec(name: "x", scenario: .trialRenews, renewals: 3)])[0]
        try await withServer(simulator) { server in
            let json = try await post(server.productionURL, try verifyBody(customer.receipt, excludeOld: true)).json
            #expect((json["latest_receipt_info"] as? [Any])?.count == 1)
        }
    }

    @Test func environmentMismatchSecretAndGarbageStatuses() async throws {
        let simulator = makeSimulator()
        let customers = try simulator.addCustomers([
            CustomerSpec(name: "prod", scenario: .trialRenews),
            CustomerSpec(name: "sand", scenario: .trialRenews, environment: .sandbox),
        ])
        try await withServer(simulator) { server in
            let sandboxAtProduction = try await post(server.productionURL, try verifyBody(customers[1].receipt))
            #expect(sandboxAtProduction.status == 200 && sandboxAtProduction.json["status"] as? Int == 21007)
            let sandboxOK = try await post(server.sandboxURL, try verifyBody(customers[1].receipt))
            #expect(sandboxOK.json["status"] as? Int == 0 && sandboxOK.json["environment"] as? String == "Sandbox")
            let productionAtSandbox = try await post(server.sandboxURL, try verifyBody(customers[0].receipt))
            #expect(productionAtSandbox.json["status"] as? Int == 21008)
            let wrongSecret = try await post(server.productionURL, try verifyBody(customers[0].receipt, password: "nope"))
            #expect(wrongSecret.json["status"] as? Int == 21004)
            let noSecret = try await post(server.productionURL, try verifyBody(customers[0].receipt, password: nil))
            #expect(noSecret.json["status"] as? Int == 21004)
            let garbage = try await post(server.productionURL, try verifyBody("not a receipt at all"))
            #expect(garbage.json["status"] as? Int == 21002)
            let notJSON = try await post(server.productionURL, Array("receipt=1".utf8))
            #expect(notJSON.status == 200 && notJSON.json["status"] as? Int == 21000)
            let get = try await SimHTTPClient.send("GET", to: server.productionURL)
            #expect(try jsonObject(get.body)["status"] as? Int == 21000)
        }
        let stats = simulator.stats()
        #expect(stats.count(.status(21007)) == 1 && stats.count(.status(21008)) == 1)
        #expect(stats.count(.status(21004)) == 2 && stats.count(.status(21002)) == 1)
        #expect(stats.count(.status(21000)) == 2 && stats.count(.status(0)) == 1)
        #expect(stats.endpoints["sandbox"] == 2)
    }

    @Test func answersReflectTheStateAtTheRequestTime() throws {
        let simulator = makeSimulator()
        let customer = try simulator.addCustomers(
            [CustomerSpec(name: "t", scenario: .trialRenews, productID: "com.example.pro.monthly", renewals: 2)],
            endingAt: fixedEnd
        )[0]
        let firstPurchase = customer.notifications[0].date
        let early = simulator.verifyReceipt(body: try verifyBody(customer.receipt), endpoint: .production, at: firstPurchase)
        let late = simulator.verifyReceipt(body: try verifyBody(customer.receipt), endpoint: .production, at: fixedEnd)
        #expect((try jsonObject(early.body)["latest_receipt_info"] as? [Any])?.count == 1)
        #expect((try jsonObject(late.body)["latest_receipt_info"] as? [Any])?.count == 3)
    }
}
