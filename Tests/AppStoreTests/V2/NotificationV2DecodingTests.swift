import Foundation
import Testing

@testable import AppStore

/// Version 2 payloads decode forward-compatibly, with strict millisecond dates.
@Suite struct NotificationV2DecodingTests {
    func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    @Test func unknownTypesAndFieldsAreKept() throws {
        let payload = try decode(
            NotificationV2Payload.self,
            """
            {"notificationType":"BRAND_NEW_TYPE","subtype":"SOMETHING","notificationUUID":"u-1","version":"2.0",
             "signedDate":1735689600000,"futureField":{"x":[1,2]},
             "data":{"appAppleId":1234,"bundleId":"com.example","environment":"Production","status":4,"newThing":true}}
            """)
        #expect(payload.notificationType == nil)
        #expect(payload.notificationTypeRaw == "BRAND_NEW_TYPE")
        #expect(payload.subtype == nil)
        #expect(payload.subtypeRaw == "SOMETHING")
        #expect(payload.signedDate == Date(timeIntervalSince1970: 1_735_689_600))
        #expect(payload.appAppleID == "1234")
        #expect(payload.environment == .production)
        #expect(payload.data?.status == .gracePeriod)
    }

    @Test func summaryAndExternalPurchaseTokenCarryTheApp() throws {
        let summary = try decode(
            NotificationV2Payload.self,
            """
            {"notificationType":"RENEWAL_EXTENSION","subtype":"SUMMARY","summary":{"bundleId":"b","environment":"Sandbox",
             "appAppleId":"9","productId":"p","storefrontCountryCodes":["USA"],"failedCount":0,"succeededCount":3}}
            """)
        #expect(summary.bundleID == "b")
        #expect(summary.summary?.succeededCount == 3)
        let token = try decode(
            NotificationV2Payload.self,
            """
            {"notificationType":"EXTERNAL_PURCHASE_TOKEN","subtype":"UNREPORTED",
             "externalPurchaseToken":{"externalPurchaseId":"SANDBOX_x","tokenCreationDate":1735689600000,"appAppleId":9,"bundleId":"b"}}
            """)
        #expect(token.notificationType == .externalPurchaseToken)
        #expect(token.appAppleID == "9")
    }

    @Test func transactionFieldsDecode() throws {
        let transaction = try decode(
            JWSTransactionPayload.self,
            """
            {"transactionId":2000000000000002,"originalTransactionId":"2000000000000001","webOrderLineItemId":"5",
             "bundleId":"b","productId":"p","subscriptionGroupIdentifier":"21","purchaseDate":1735689600000,
             "originalPurchaseDate":1735689600000,"expiresDate":1738368000000,"quantity":1,
             "type":"Auto-Renewable Subscription","appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f608138",
             "inAppOwnershipType":"FAMILY_SHARED","signedDate":1735689600000,"revocationDate":1736000000000,
             "revocationReason":1,"isUpgraded":true,"offerType":1,"offerIdentifier":"intro","offerDiscountType":"FREE_TRIAL",
             "offerPeriod":"P1W","environment":"Sandbox","storefront":"USA","storefrontId":"143441",
             "transactionReason":"RENEWAL","price":9990,"currency":"USD"}
            """)
        #expect(transaction.transactionID == "2000000000000002")
        #expect(transaction.type == .autoRenewable)
        #expect(transaction.inAppOwnershipType == .familyShared)
        #expect(transaction.offerType == .introductory)
        #expect(transaction.offerDiscountType == .freeTrial)
        #expect(transaction.transactionReason == .renewal)
        #expect(transaction.isUpgraded == true)
        #expect(transaction.revocationReason == 1)
        #expect(transaction.price == 9990)
        #expect(transaction.expiresDate == Date(timeIntervalSince1970: 1_738_368_000))
        #expect(transaction.environment == .sandbox)
    }

    @Test func renewalFieldsDecode() throws {
        let renewal = try decode(
            JWSRenewalInfoPayload.self,
            """
            {"originalTransactionId":"1","productId":"p","autoRenewProductId":"q","autoRenewStatus":0,
             "expirationIntent":2,"gracePeriodExpiresDate":1735689600000,"isInBillingRetryPeriod":true,
             "priceIncreaseStatus":1,"renewalDate":1735689600000,"environment":"Production","signedDate":1735689600000}
            """)
        #expect(renewal.willAutoRenew == false)
        #expect(renewal.expirationIntent != nil)
        #expect(renewal.isInBillingRetryPeriod == true)
        #expect(renewal.environment == .production)
    }

    static let badDates = [
        "1.5", "1e300", "-1e300", "0", "-1", "1167609599999", "253402300800000",
        "\"1735689600000\"", "true", "{}",
    ]

    @Test(arguments: badDates)
    func badDatesFailNamingTheField(_ value: String) throws {
        do {
            _ = try decode(JWSTransactionPayload.self, #"{"expiresDate":\#(value)}"#)
            Issue.record("\(value) decoded")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.codingPath.last?.stringValue == "expiresDate")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.codingPath.last?.stringValue == "expiresDate")
        }
    }

    @Test("a monthly-billed commitment (API 1.21): billingPlanType kept as sent, commitmentInfo read; an unknown plan never fails")
    func commitmentBilling() throws {
        let monthly = try decode(
            JWSTransactionPayload.self,
            #"{"billingPlanType":"MONTHLY","commitmentInfo":{"billingPeriodNumber":3,"totalBillingPeriods":12,"commitmentExpiresDate":1698150000000,"commitmentPrice":119880}}"#
        )
        #expect(monthly.billingPlanTypeRaw == "MONTHLY")
        #expect(monthly.commitmentInfo?.billingPeriodNumber == 3)
        #expect(monthly.commitmentInfo?.totalBillingPeriods == 12)
        #expect(monthly.commitmentInfo?.commitmentExpiresDate == Date(timeIntervalSince1970: 1_698_150_000))
        #expect(monthly.commitmentInfo?.commitmentPrice == 119_880)
        let future = try decode(JWSTransactionPayload.self, #"{"billingPlanType":"QUARTERLY_SOMEDAY","commitmentInfo":{"newField":1}}"#)
        #expect(future.billingPlanTypeRaw == "QUARTERLY_SOMEDAY")
        #expect(future.commitmentInfo?.commitmentExpiresDate == nil)
        #expect(throws: DecodingError.self) {
            try decode(JWSTransactionPayload.self, #"{"commitmentInfo":{"commitmentExpiresDate":"soon"}}"#)
        }
    }

    @Test func dateBoundsAreInclusive() throws {
        let early = try decode(JWSTransactionPayload.self, #"{"purchaseDate":1167609600000,"expiresDate":253402300799999}"#)
        #expect(early.purchaseDate == Date(timeIntervalSince1970: 1_167_609_600))
        #expect(early.expiresDate != nil)
        let null = try decode(JWSTransactionPayload.self, #"{"expiresDate":null}"#)
        #expect(null.expiresDate == nil)
    }

    @Test(arguments: ["1.5", "true", "[1]", "1e300"])
    func badIDsFail(_ value: String) {
        #expect(throws: DecodingError.self) {
            try decode(JWSTransactionPayload.self, #"{"originalTransactionId":\#(value)}"#)
        }
    }

    @Test func idsAcceptStringsAndWholeNumbers() throws {
        let numeric = try decode(JWSTransactionPayload.self, #"{"originalTransactionId":2000001024993299,"webOrderLineItemId":"77"}"#)
        #expect(numeric.originalTransactionID == "2000001024993299")
        #expect(numeric.webOrderLineItemID == "77")
    }
}
