import AppStore
import Foundation
import Testing

@Suite("environment, intents, request")
struct SmallTypesTests {
    @Test(
        "Apple's environment spellings",
        arguments: [
            ("Production", AppStoreEnvironment.production), ("PROD", .production), ("prod", .production),
            ("Sandbox", .sandbox), ("SANDBOX", .sandbox), (" sandbox ", .sandbox),
        ])
    func environments(text: String, expected: AppStoreEnvironment) {
        #expect(AppStoreEnvironment(appleValue: text) == expected)
    }

    @Test func unknownEnvironmentIsNil() {
        #expect(AppStoreEnvironment(appleValue: "ProductionSandbox") == nil)
        #expect(AppStoreEnvironment(appleValue: "") == nil)
        #expect(AppStoreEnvironment.production.rawValue == "Production")
    }

    @Test(
        "expiration intent codes",
        arguments: [
            ("1", ExpirationIntent.customerCancelled), ("2", .billingError), ("3", .priceIncreaseDeclined),
            ("4", .productUnavailable), ("5", .unknown), ("6", .unknown), ("abc", .unknown),
        ])
    func intents(code: String, expected: ExpirationIntent) {
        #expect(ExpirationIntent(appleCode: code) == expected)
    }

    @Test func intentContractNames() {
        #expect(ExpirationIntent(appleCode: "") == nil)
        #expect(
            ExpirationIntent.allCases.map(\.rawValue)
                == ["customer_cancelled", "billing_error", "price_increase_declined", "product_unavailable", "unknown"])
    }

    @Test func everyDocumentedNotificationTypeIsKnown() {
        let documented = [
            "INITIAL_BUY", "DID_RENEW", "INTERACTIVE_RENEWAL", "DID_RECOVER", "RENEWAL",
            "DID_CHANGE_RENEWAL_STATUS", "DID_CHANGE_RENEWAL_PREF", "DID_FAIL_TO_RENEW", "CANCEL",
            "REFUND", "REVOKE", "PRICE_INCREASE_CONSENT", "CONSUMPTION_REQUEST",
        ]
        #expect(documented.allSatisfy { NotificationV1Type(rawValue: $0) != nil })
        #expect(NotificationV1Type.allCases.count == documented.count)
    }

    @Test func requestUsesApplesKeys() throws {
        let request = VerifyReceiptRequest(receiptData: "MII/ab+c=", password: "s3cret", excludeOldTransactions: true)
        let text = String(decoding: try request.jsonBytes(), as: UTF8.self)
        #expect(text == #"{"exclude-old-transactions":true,"password":"s3cret","receipt-data":"MII/ab+c="}"#)
    }

    @Test func requestLeavesOutAbsentOptions() throws {
        let text = String(decoding: try VerifyReceiptRequest(receiptData: "abc", password: nil).jsonBytes(), as: UTF8.self)
        #expect(text == #"{"receipt-data":"abc"}"#)
    }

    @Test func requestDescriptionHidesSecretAndReceipt() {
        let request = VerifyReceiptRequest(receiptData: "MIIsecretreceipt", password: "s3cret")
        #expect(!request.description.contains("s3cret") && !request.description.contains("MIIsecret"))
        #expect(!String(reflecting: request).contains("s3cret"))
    }
}
