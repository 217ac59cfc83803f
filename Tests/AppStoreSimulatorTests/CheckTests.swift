import AppStoreSimulator
import Foundation
import Testing

@Suite("Checking subscriptiond's answers: entitlements compared with the truth")
struct CheckTests {
    /// The demo customers and their truth at the fixed end, as JSON objects by app user id.
    private func world() throws -> (AppStoreSimulator, TruthReport, [String: [String: Any]]) {
        let simulator = makeSimulator()
        try simulator.addDemoCustomers(endingAt: fixedEnd)
        let report = simulator.truth(at: fixedEnd)
        let json = try jsonObject(Array(report.jsonText(pretty: false).utf8))
        let customers = (json["customers"] as? [[String: Any]] ?? []).reduce(into: [String: [String: Any]]()) {
            $0[$1["app_user_id"] as? String ?? ""] = $1
        }
        return (simulator, report, customers)
    }

    /// Answers as a subscriptiond in full agreement would give them, after `change` to the entitlements.
    private func answers(
        _ customer: [String: Any], subscriberStatus: Int = 200, change: (inout [String: Any]) -> Void = { _ in }
    ) throws -> CustomerCheck.Answers {
        var entitlements = customer["entitlements"] as? [String: Any] ?? [:]
        change(&entitlements)
        let eligibility = customer["eligibility"] as? [String: String] ?? [:]
        return CustomerCheck.Answers(
            subscriberStatus: subscriberStatus, subscriber: try jsonBytes(customer),
            entitlementsStatus: 200,
            entitlements: try jsonBytes(["app_user_id": customer["app_user_id"] ?? "", "entitlements": entitlements]),
            eligibility: eligibility
        )
    }

    @Test func theTruthsOwnAnswersAgree() throws {
        let (_, report, customers) = try world()
        for truth in report.customers {
            let check = CustomerCheck(
                truth: truth, answers: try answers(try #require(customers[truth.appUserID])), productIDs: Array(truth.eligibility.keys))
            #expect(check.agrees, "\(truth.appUserID): \(check.mismatches)")
            #expect(check.actualEntitlements == truth.activeEntitlements)
        }
    }

    @Test func aDifferentSourceExpiryOrMissingEntitlementDisagrees() throws {
        let (_, report, customers) = try world()
        let rosa = try #require(report.customer("rosa-passes-stack"))
        let json = try #require(customers["rosa-passes-stack"])
        let pro = try #require((json["entitlements"] as? [String: Any])?["pro"] as? [String: Any])

        var wrongSource = pro
        wrongSource["source"] = "trial"
        let bySource = CustomerCheck(truth: rosa, answers: try answers(json) { $0["pro"] = wrongSource }, productIDs: [])
        #expect(bySource.mismatches.count == 1 && bySource.mismatches[0].hasPrefix("entitlement pro:"))

        var oneSecondLater = pro
        let expires = try #require(rosa.entitlement("pro")?.grantedBy?.expiresAt)
        let formatter = ISO8601DateFormatter()
        oneSecondLater["expires_at"] = formatter.string(from: expires.addingTimeInterval(1))
        #expect(!CustomerCheck(truth: rosa, answers: try answers(json) { $0["pro"] = oneSecondLater }, productIDs: []).agrees)
        var fractional = pro
        fractional["expires_at"] = (pro["expires_at"] as? String ?? "").replacingOccurrences(of: "Z", with: ".250Z")
        #expect(CustomerCheck(truth: rosa, answers: try answers(json) { $0["pro"] = fractional }, productIDs: []).agrees, "to the second")

        let missing = CustomerCheck(truth: rosa, answers: try answers(json) { $0["news"] = nil }, productIDs: [])
        #expect(missing.mismatches == ["entitlement news: missing"])
        var inactive = pro
        inactive["active"] = false
        #expect(!CustomerCheck(truth: rosa, answers: try answers(json) { $0["pro"] = inactive }, productIDs: []).agrees)
    }

    @Test func anUnknownSubscriberDisagreesEvenWithNothingToOwn() throws {
        let (_, report, customers) = try world()
        let zack = try #require(report.customer("zack-paid-2.0"))
        #expect(zack.subscriptions.isEmpty && zack.purchases.isEmpty && zack.activeEntitlements.isEmpty)
        let check = CustomerCheck(
            truth: zack, answers: try answers(try #require(customers["zack-paid-2.0"]), subscriberStatus: 404), productIDs: [])
        #expect(!check.agrees)
    }

    @Test func theTableShowsTheActiveEntitlements() throws {
        let (_, report, customers) = try world()
        let results = try ["pam-lifetime", "uma-coins", "yara-paid-1.9"].map { id in
            CustomerCheck(truth: try #require(report.customer(id)), answers: try answers(try #require(customers[id])), productIDs: [])
        }
        let table = CheckTable.render(results, productIDs: ["com.example.pro.monthly"])
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines[0].contains("ENTITLEMENTS"))
        #expect(lines[1].contains("pro:non_consumable"))
        #expect(lines[2].contains("no  ") && lines[2].contains(" -  "))
        #expect(lines[3].contains("paid_pro:grandfathered"))
        #expect(table.hasSuffix("subscriptiond agrees with the simulator: 3/3 customers"))
        let both = CheckTable.render(results, productIDs: ["com.example.pro.yearly", "com.example.paidapp.pro.yearly"])
        #expect(both.hasPrefix("CUSTOMER") && both.contains("  example.pro.yearly  paidapp.pro.yearly  AGREES"))
    }
}
