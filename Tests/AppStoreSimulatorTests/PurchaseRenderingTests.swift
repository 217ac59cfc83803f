import AppStoreSimulator
import Crypto
import Foundation
import Testing

@Suite("One-time purchases in receipts, v1 refunds and signed v2 transactions")
struct PurchaseRenderingTests {
    /// The verifyReceipt answer for `customer`'s receipt at the fixed end.
    private func verify(_ simulator: AppStoreSimulator, _ customer: SimCustomer, password: String = "s3cret") throws -> [String: Any] {
        let endpoint: VerifyEndpoint = customer.environment == .sandbox ? .sandbox : .production
        let answer = simulator.verifyReceipt(body: try verifyBody(customer.receipt, password: password), endpoint: endpoint, at: fixedEnd)
        #expect(answer.status == 0)
        return try jsonObject(answer.body)
    }

    @Test func aReceiptWithoutSubscriptionsListsPurchasesInInAppOnly() throws {
        let simulator = makeSimulator()
        let customer = try simulator.addCustomers([CustomerSpec(name: "refunded", scenario: .lifetimeRefund)], endingAt: fixedEnd)[0]
        let json = try verify(simulator, customer)
        for key in ["latest_receipt_info", "pending_renewal_info", "latest_receipt"] {
            #expect(json[key] == nil, "\(key): Apple sends it only for receipts with auto-renewable subscriptions")
        }
        let receipt = try #require(json["receipt"] as? [String: Any])
        #expect(receipt["original_application_version"] as? String == "1.0")
        let entry = try #require((receipt["in_app"] as? [[String: Any]])?.first)
        #expect(entry["product_id"] as? String == "com.example.pro.lifetime")
        #expect(entry["expires_date_ms"] == nil && entry["expires_date"] == nil && entry["subscription_group_identifier"] == nil)
        #expect(entry["transaction_id"] as? String == entry["original_transaction_id"] as? String)
        let purchase = try #require(customer.state(at: fixedEnd).purchases.first)
        #expect(entry["purchase_date_ms"] as? String == String(Int64(purchase.purchaseDate.timeIntervalSince1970 * 1_000)))
        #expect(
            entry["cancellation_date_ms"] as? String == String(Int64(try #require(purchase.cancellationDate).timeIntervalSince1970 * 1_000))
        )
        #expect(["0", "1"].contains(entry["cancellation_reason"] as? String ?? ""))
        #expect(entry["quantity"] as? String == "1")
    }

    @Test func aSubscribersReceiptListsTheUnlockInBothArrays() throws {
        let simulator = makeSimulator()
        let customer = try simulator.addCustomers(
            [
                CustomerSpec(name: "both", scenario: .lifetimeAndSubscription, productID: "com.example.pro.monthly", renewals: 1)
            ], endingAt: fixedEnd)[0]
        let json = try verify(simulator, customer)
        let latest = try #require(json["latest_receipt_info"] as? [[String: Any]])
        #expect(
            latest.map { $0["product_id"] as? String } == [
                "com.example.pro.lifetime", "com.example.pro.monthly", "com.example.pro.monthly",
            ])
        #expect(latest[0]["expires_date_ms"] == nil && latest[1]["expires_date_ms"] != nil)
        let inApp = try #require((json["receipt"] as? [String: Any])?["in_app"] as? [[String: Any]])
        #expect(
            inApp.map { $0["product_id"] as? String } == ["com.example.pro.monthly", "com.example.pro.monthly", "com.example.pro.lifetime"])
        #expect((json["pending_renewal_info"] as? [Any])?.count == 1 && json["latest_receipt"] is String)
    }

    @Test func thePaidAppsReceiptNamesTheOriginalVersion() throws {
        let simulator = makeSimulator()
        let customer = try simulator.addCustomers(
            [
                CustomerSpec(
                    name: "old", scenario: .grandfathered, bundleID: SimulatorConfiguration.demoPaidAppBundleID,
                    originalApplicationVersion: "1.9")
            ], endingAt: fixedEnd)[0]
        let json = try verify(simulator, customer, password: SimulatorConfiguration.demoPaidAppSharedSecret)
        let receipt = try #require(json["receipt"] as? [String: Any])
        #expect(receipt["original_application_version"] as? String == "1.9")
        #expect(receipt["application_version"] as? String == "10.2")
        #expect(receipt["bundle_id"] as? String == "com.example.paidapp")
        #expect((receipt["in_app"] as? [Any])?.isEmpty == true)
        #expect(simulator.verifyReceipt(body: try verifyBody(customer.receipt), endpoint: .production, at: fixedEnd).status == 21004)
    }

    @Test func aV1RefundOfAPurchaseHasNoRenewalFields() throws {
        let simulator = makeSimulator()
        let customer = try simulator.addCustomers([CustomerSpec(name: "refunded", scenario: .lifetimeRefund)], endingAt: fixedEnd)[0]
        let body = try jsonObject(try #require(customer.notifications.first).body)
        #expect(body["notification_type"] as? String == "REFUND")
        #expect(body["password"] as? String == "s3cret" && body["bid"] as? String == "com.example.app")
        #expect(body["auto_renew_status"] == nil && body["auto_renew_product_id"] == nil && body["expiration_intent"] == nil)
        let unified = try #require(body["unified_receipt"] as? [String: Any])
        let entry = try #require((unified["latest_receipt_info"] as? [[String: Any]])?.first)
        #expect(entry["product_id"] as? String == "com.example.pro.lifetime" && entry["cancellation_date_ms"] != nil)
        #expect((unified["pending_renewal_info"] as? [Any])?.isEmpty == true)
    }

    @Test func signedPurchasesCarryAppleTypesAndPricesWithoutExpiry() throws {
        let simulator = makeSimulator()
        let customers = try simulator.addCustomers(
            [
                CustomerSpec(
                    name: "life", scenario: .lifetimeRefund, notificationVersion: .v2,
                    appAccountToken: "2f5c1ab0-8c5e-4a47-9a3c-0e3d6c1f1a2b"),
                CustomerSpec(name: "pass", scenario: .passExpired, notificationVersion: .v2),
                CustomerSpec(name: "coins", scenario: .consumable, notificationVersion: .v2),
            ], endingAt: fixedEnd)
        let leafKey = try simulator.signingPKI().leaf.key.publicKey
        let expected: [(String, String, Int)] = [
            ("com.example.pro.lifetime", "Non-Consumable", 49_990), ("com.example.pass.30days", "Non-Renewing Subscription", 6_990),
            ("com.example.coins.100", "Consumable", 990),
        ]
        for (customer, (product, type, price)) in zip(customers, expected) {
            let charge = try DecodedNotificationV2(try #require(customer.notifications.first))
            #expect(charge.payload["notificationType"] as? String == "ONE_TIME_CHARGE" && charge.payload["subtype"] == nil)
            #expect(charge.outer.verifies(with: leafKey))
            #expect(charge.data["signedRenewalInfo"] == nil && charge.data["status"] == nil)
            #expect(charge.data["bundleId"] as? String == "com.example.app" && charge.data["environment"] as? String == "Production")
            let t = charge.transaction
            #expect(t["productId"] as? String == product && t["type"] as? String == type)
            #expect(t["price"] as? Int == price && t["currency"] as? String == "USD" && t["storefront"] as? String == "USA")
            #expect(t["quantity"] as? Int == 1 && t["transactionReason"] as? String == "PURCHASE")
            for absent in ["expiresDate", "subscriptionGroupIdentifier", "webOrderLineItemId", "revocationDate", "offerType"] {
                #expect(t[absent] == nil, "\(absent)")
            }
            #expect(try DecodedJWS(try #require(charge.data["signedTransactionInfo"] as? String)).verifies(with: leafKey))
        }
        #expect(
            try DecodedNotificationV2(customers[0].notifications[0]).transaction["appAccountToken"] as? String
                == "2f5c1ab0-8c5e-4a47-9a3c-0e3d6c1f1a2b")
        let refund = try DecodedNotificationV2(try #require(customers[0].notifications.last))
        #expect(refund.payload["notificationType"] as? String == "REFUND" && refund.data["signedRenewalInfo"] == nil)
        let purchase = try #require(customers[0].state(at: fixedEnd).purchases.first)
        #expect(refund.transaction["revocationDate"] as? Int == Int(try #require(purchase.cancellationDate).timeIntervalSince1970 * 1_000))
        #expect(refund.transaction["revocationType"] as? String == "REFUND_FULL")
        #expect(refund.transaction["revocationReason"] as? Int == Int(purchase.cancellationReason ?? ""))
        #expect(refund.transaction["transactionId"] as? String == purchase.transactionID)
    }

    @Test func theServerAPIFindsPurchases() async throws {
        let credentials = try TestAPICredentials()
        let simulator = apiSimulator(credentials)
        let customer = try simulator.addCustomers([
            CustomerSpec(
                name: "both", scenario: .lifetimeAndSubscription, productID: "com.example.pro.monthly", renewals: 1,
                notificationVersion: .v2)
        ])[0]
        let unlock = try #require(customer.state(at: Date()).purchases.first)
        try await withServer(simulator) { server in
            let (response, info) = try await apiCall(
                server.apiProductionURL, "/inApps/v1/transactions/" + unlock.transactionID, token: try credentials.token())
            #expect(response.status == 200)
            let transaction = try DecodedJWS(try #require(info["signedTransactionInfo"] as? String)).payload
            #expect(transaction["type"] as? String == "Non-Consumable" && transaction["expiresDate"] == nil)
            let (_, history) = try await apiCall(
                server.apiProductionURL, "/inApps/v2/history/" + unlock.transactionID, token: try credentials.token())
            let types = try (history["signedTransactions"] as? [String] ?? []).map { try DecodedJWS($0).payload["type"] as? String }
            #expect(types == ["Auto-Renewable Subscription", "Auto-Renewable Subscription", "Non-Consumable"])
        }
    }
}
