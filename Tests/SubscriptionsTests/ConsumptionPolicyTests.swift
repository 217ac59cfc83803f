import Foundation
import Subscriptions
import Testing

/// The body of Send Consumption Information, as the app's `consumption` setting makes it.
@Suite struct ConsumptionPolicyTests {
    @Test("the body says the customer consented, the delivery, the preference and the sample, keys sorted")
    func body() throws {
        let policy = ConsumptionPolicy(refundPreference: .decline, deliveryStatus: .delivered, sampleContentProvided: true)
        let body = policy.body(autoRenewable: true)
        #expect(
            body == #"{"customerConsented":true,"deliveryStatus":"DELIVERED","refundPreference":"DECLINE","sampleContentProvided":true}"#)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        #expect(object["customerConsented"] as? Bool == true)
    }

    @Test("no preference leaves the field out")
    func noPreference() {
        #expect(
            ConsumptionPolicy().body(autoRenewable: false)
                == #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#)
    }

    @Test("GRANT_PRORATED is sent for an auto-renewable subscription, left out for a purchase that would need a percentage")
    func prorated() {
        let policy = ConsumptionPolicy(refundPreference: .grantProrated, deliveryStatus: .undeliveredQualityIssue)
        #expect(policy.refundPreference(autoRenewable: true) == .grantProrated)
        #expect(policy.refundPreference(autoRenewable: false) == nil)
        #expect(policy.body(autoRenewable: false).contains("refundPreference") == false)
        #expect(policy.body(autoRenewable: true).contains(#""refundPreference":"GRANT_PRORATED""#))
        #expect(policy.body(autoRenewable: true).contains(#""deliveryStatus":"UNDELIVERED_QUALITY_ISSUE""#))
    }

    @Test("what the app's backend reported replaces the defaults; with a percentage GRANT_PRORATED holds for any purchase")
    func reported() {
        let policy = ConsumptionPolicy(refundPreference: .grantProrated, deliveryStatus: .delivered)
        #expect(
            policy.body(autoRenewable: false, reportedPercentage: 25_000, reportedDelivery: .undeliveredWrongItem)
                == #"{"consumptionPercentage":25000,"customerConsented":true,"deliveryStatus":"UNDELIVERED_WRONG_ITEM","refundPreference":"GRANT_PRORATED","sampleContentProvided":false}"#
        )
        // Only the delivery known: no percentage, so a one-time purchase still sends no GRANT_PRORATED.
        #expect(
            policy.body(autoRenewable: false, reportedDelivery: .undeliveredOther)
                == #"{"customerConsented":true,"deliveryStatus":"UNDELIVERED_OTHER","sampleContentProvided":false}"#)
        #expect(policy.body(autoRenewable: true, reportedPercentage: 250_000).contains(#""consumptionPercentage":100000"#))
    }
}
