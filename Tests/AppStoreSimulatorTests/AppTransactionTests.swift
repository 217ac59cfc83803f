import AppStoreSimulator
import Crypto
import Foundation
import Testing

@Suite("StoreKit 2 AppTransaction of the paid app's v2 customers")
struct AppTransactionTests {
    @Test(arguments: [SimEnvironment.production, .sandbox])
    func signedLikeTransactionsWithTheOriginalVersion(environment: SimEnvironment) throws {
        let simulator = makeSimulator()
        let customer = try simulator.addCustomers(
            [
                CustomerSpec(
                    name: "old", scenario: .grandfathered, environment: environment, bundleID: SimulatorConfiguration.demoPaidAppBundleID,
                    notificationVersion: .v2, originalApplicationVersion: "1.9"
                )
            ], endingAt: fixedEnd)[0]
        let jws = try DecodedJWS(try #require(customer.signedAppTransaction))
        let pki = try simulator.signingPKI()
        #expect(jws.header["alg"] as? String == "ES256")
        #expect(jws.header["x5c"] as? [String] == pki.x5c)
        #expect(jws.verifies(with: pki.leaf.key.publicKey))
        let p = jws.payload
        #expect(p["receiptType"] as? String == environment.rawValue)
        #expect(p["bundleId"] as? String == "com.example.paidapp")
        #expect(p["appAppleId"] as? Int == SimulatorConfiguration.demoPaidAppAppleID)
        #expect(p["applicationVersion"] as? String == "10.2")
        #expect(p["originalApplicationVersion"] as? String == "1.9")
        #expect(p["originalPurchaseDate"] as? Int == Int(customer.installDate.timeIntervalSince1970 * 1_000))
        #expect(p["receiptCreationDate"] is Int && p["signedDate"] is Int)
        #expect((p["appTransactionId"] as? String)?.allSatisfy(\.isNumber) == true)
        #expect(p["originalPlatform"] as? String == "iOS")
        #expect(Data(base64Encoded: p["deviceVerification"] as? String ?? "")?.count == 48)
        #expect(UUID(uuidString: p["deviceVerificationNonce"] as? String ?? "") != nil)
        #expect(
            Set(p.keys) == [
                "receiptType", "bundleId", "appAppleId", "applicationVersion", "originalApplicationVersion", "originalPurchaseDate",
                "receiptCreationDate", "appTransactionId", "originalPlatform", "signedDate", "deviceVerification",
                "deviceVerificationNonce",
            ])
        let truth = simulator.truth(of: customer, at: fixedEnd)
        #expect(truth.signedAppTransaction == customer.signedAppTransaction)
        let report = try jsonObject(Array(simulator.truth(at: fixedEnd).jsonText().utf8))
        let entry = try #require((report["customers"] as? [[String: Any]])?.first)
        #expect(entry["signed_app_transaction"] as? String == customer.signedAppTransaction)
        #expect(entry["original_application_version"] as? String == "1.9")
    }

    @Test func onlyV2CustomersOfAnAppWithAGrandfatherRuleHaveOne() throws {
        let simulator = makeSimulator()
        let paid = SimulatorConfiguration.demoPaidAppBundleID
        let customers = try simulator.addCustomers(
            [
                CustomerSpec(name: "v1", scenario: .notGrandfathered, bundleID: paid),
                CustomerSpec(name: "migrating", scenario: .notGrandfathered, bundleID: paid, notificationVersion: .migrating),
                CustomerSpec(name: "demo-app", scenario: .lifetime, notificationVersion: .v2),
            ], endingAt: fixedEnd)
        #expect(customers.map { $0.signedAppTransaction != nil } == [false, true, false])
        let two = try makeSimulator().addCustomers(
            [
                CustomerSpec(name: "a", scenario: .grandfathered, bundleID: paid, notificationVersion: .v2),
                CustomerSpec(name: "b", scenario: .grandfathered, bundleID: paid, notificationVersion: .v2),
            ], endingAt: fixedEnd)
        let ids = try two.map { try DecodedJWS(try #require($0.signedAppTransaction)).payload["appTransactionId"] as? String }
        #expect(ids[0] != ids[1])
    }
}
