import AppStoreSimulator
import Crypto
import Foundation
import Testing

/// Get App Transaction Info's path for `transactionID`.
private func appTransactionPath(_ transactionID: String) -> String {
    "/inApps/v1/transactions/appTransactions/" + transactionID
}

@Suite("App Store Server API: Get App Transaction Info")
struct APIAppTransactionTests {
    @Test func aSubscriptionTransactionGivesTheCustomersAppTransactionSignedNow() async throws {
        let credentials = try TestAPICredentials()
        let simulator = apiSimulator(credentials)
        let paid = SimulatorConfiguration.demoPaidAppBundleID
        let customers = try simulator.addCustomers([
            CustomerSpec(
                name: "subscriber", scenario: .trialRenews, bundleID: paid, renewals: 2,
                notificationVersion: .v2, originalApplicationVersion: "10.1"
            ),
            // A v1 customer: the device holds no AppTransaction, the API still has one.
            CustomerSpec(
                name: "early", scenario: .trialRenews, environment: .sandbox, bundleID: paid, renewals: 1,
                originalApplicationVersion: "1.9"
            ),
        ])
        let (subscriber, early) = (customers[0], customers[1])
        #expect(early.signedAppTransaction == nil)
        let device = try DecodedJWS(try #require(subscriber.signedAppTransaction)).payload
        let transactions = subscriber.state(at: Date()).transactions
        #expect(transactions.count >= 3)
        let earlyID = try #require(early.state(at: Date()).transactions.first?.transactionID)
        let pki = try simulator.signingPKI()
        try await withServer(simulator) { server in
            let token = try credentials.token(bundleID: paid)
            var appTransactionIDs: Set<String> = []
            // Any of the customer's transactions finds it: the first, a renewal, the latest.
            for transaction in [transactions.first, transactions.dropFirst().first, transactions.last] {
                let id = try #require(transaction?.transactionID)
                let before = Int(Date().timeIntervalSince1970 * 1_000) - 1_000
                let (response, json) = try await apiCall(server.apiProductionURL, appTransactionPath(id), token: token)
                let after = Int(Date().timeIntervalSince1970 * 1_000) + 1_000
                #expect(response.status == 200, "\(id): \(response.text)")
                #expect(Set(json.keys) == ["signedAppTransactionInfo"])
                let jws = try DecodedJWS(try #require(json["signedAppTransactionInfo"] as? String))
                #expect(jws.header["alg"] as? String == "ES256")
                #expect(jws.header["x5c"] as? [String] == pki.x5c)
                #expect(jws.verifies(with: pki.leaf.key.publicKey))
                #expect(try jws.chain().count == 3)
                let p = jws.payload
                #expect(p["receiptType"] as? String == "Production")
                #expect(p["bundleId"] as? String == paid)
                #expect(p["appAppleId"] as? Int == SimulatorConfiguration.demoPaidAppAppleID)
                #expect(p["originalApplicationVersion"] as? String == "10.1")
                #expect(p["originalPurchaseDate"] as? Int == Int(subscriber.installDate.timeIntervalSince1970 * 1_000))
                let signedDate = try #require(p["signedDate"] as? Int)
                #expect(signedDate >= before && signedDate <= after)
                #expect(p["receiptCreationDate"] as? Int == signedDate)
                // The device's AppTransaction, signed again: only the dates of signing differ.
                #expect(Set(p.keys) == Set(device.keys))
                for key in device.keys where key != "signedDate" && key != "receiptCreationDate" {
                    #expect("\(p[key] ?? "nil")" == "\(device[key] ?? "nil")", "\(key)")
                }
                appTransactionIDs.insert(try #require(p["appTransactionId"] as? String))
            }
            #expect(appTransactionIDs == [try #require(device["appTransactionId"] as? String)])

            let (response, json) = try await apiCall(server.apiSandboxURL, appTransactionPath(earlyID), token: token)
            #expect(response.status == 200)
            let p = try DecodedJWS(try #require(json["signedAppTransactionInfo"] as? String)).payload
            #expect(p["receiptType"] as? String == "Sandbox")
            #expect(p["originalApplicationVersion"] as? String == "1.9")
            #expect(p["originalApplicationVersion"] as? String == early.originalApplicationVersion)
            #expect(p["appTransactionId"] as? String != device["appTransactionId"] as? String)
        }
    }

    @Test func aOneTimePurchaseGivesTheAppTransactionOfAnAppWithoutGrandfathering() async throws {
        let credentials = try TestAPICredentials()
        let simulator = apiSimulator(credentials)
        let customers = try simulator.addCustomers([
            CustomerSpec(name: "unlock", scenario: .lifetime),
            CustomerSpec(
                name: "both", scenario: .lifetimeAndSubscription, productID: "com.example.pro.monthly", renewals: 1,
                notificationVersion: .v2),
        ])
        #expect(customers.allSatisfy { $0.signedAppTransaction == nil })
        let unlock = try #require(customers[0].state(at: Date()).purchases.first)
        let bothPurchase = try #require(customers[1].state(at: Date()).purchases.first)
        let bothSubscription = try #require(customers[1].state(at: Date()).transactions.first)
        let leafKey = try simulator.signingPKI().leaf.key.publicKey
        try await withServer(simulator) { server in
            let token = try credentials.token()
            let (response, json) = try await apiCall(server.apiProductionURL, appTransactionPath(unlock.transactionID), token: token)
            #expect(response.status == 200, "\(response.text)")
            let jws = try DecodedJWS(try #require(json["signedAppTransactionInfo"] as? String))
            #expect(jws.verifies(with: leafKey))
            let p = jws.payload
            #expect(p["receiptType"] as? String == "Production")
            #expect(p["bundleId"] as? String == SimulatorConfiguration.demoBundleID)
            #expect(p["appAppleId"] as? Int == 1_234_567_890)
            #expect(p["applicationVersion"] as? String == "42")
            #expect(p["originalApplicationVersion"] as? String == "1.0")
            #expect(p["originalPurchaseDate"] as? Int == Int(customers[0].installDate.timeIntervalSince1970 * 1_000))
            #expect((p["appTransactionId"] as? String)?.allSatisfy(\.isNumber) == true)

            // The purchase and the subscription of one customer name the same AppTransaction,
            // another customer's differs.
            var ids: [String?] = []
            for id in [bothPurchase.transactionID, bothSubscription.transactionID] {
                let (answer, body) = try await apiCall(server.apiProductionURL, appTransactionPath(id), token: token)
                #expect(answer.status == 200)
                let payload = try DecodedJWS(try #require(body["signedAppTransactionInfo"] as? String)).payload
                #expect(payload["originalApplicationVersion"] as? String == "1.0")
                ids.append(payload["appTransactionId"] as? String)
            }
            #expect(ids[0] != nil && ids[0] == ids[1])
            #expect(ids[0] != p["appTransactionId"] as? String)
        }
    }

    @Test func aTransactionOfTheOtherEnvironmentOrOfNobodyIsNotFound() async throws {
        let credentials = try TestAPICredentials()
        let simulator = apiSimulator(credentials)
        let customers = try simulator.addCustomers([
            CustomerSpec(name: "prod", scenario: .trialRenews, environment: .production, notificationVersion: .v2),
            CustomerSpec(name: "sand", scenario: .lifetime, environment: .sandbox),
        ])
        let prodID = try #require(customers[0].state(at: Date()).transactions.last?.transactionID)
        let sandID = try #require(customers[1].state(at: Date()).purchases.first?.transactionID)
        try await withServer(simulator) { server in
            let token = try credentials.token()
            for (base, id, environment) in [
                (server.apiProductionURL, prodID, "Production"), (server.apiSandboxURL, prodID, nil),
                (server.apiSandboxURL, sandID, "Sandbox"), (server.apiProductionURL, sandID, nil),
                (server.apiProductionURL, "999999999", nil), (server.apiSandboxURL, "999999999", nil),
            ] {
                let (response, json) = try await apiCall(base, appTransactionPath(id), token: token)
                #expect(response.status == (environment == nil ? 404 : 200), "\(base.path) \(id)")
                if let environment {
                    let payload = try DecodedJWS(try #require(json["signedAppTransactionInfo"] as? String)).payload
                    #expect(payload["receiptType"] as? String == environment)
                } else {
                    #expect(json["errorCode"] as? Int == 4_040_010, "\(base.path) \(id)")
                    #expect(json["errorMessage"] as? String == "Transaction id not found.")
                    #expect(json["signedAppTransactionInfo"] == nil)
                }
            }
            // A token for another app does not see this app's customers.
            let other = try credentials.token(bundleID: SimulatorConfiguration.demoPaidAppBundleID)
            #expect(try await apiCall(server.apiProductionURL, appTransactionPath(prodID), token: other).response.status == 404)
        }
    }

    @Test func refusedWithoutAValidTokenAndSubjectToFaultsAndStats() async throws {
        let credentials = try TestAPICredentials()
        let simulator = apiSimulator(credentials)
        let customer = try simulator.addCustomers([CustomerSpec(name: "unlock", scenario: .lifetime)])[0]
        let path = appTransactionPath(try #require(customer.state(at: Date()).purchases.first?.transactionID))
        try await withServer(simulator) { server in
            let refused: [(String, String?)] = [
                ("no token", nil),
                ("wrong key", try credentials.token(signer: P256.Signing.PrivateKey())),
                ("wrong bid", try credentials.token(bundleID: "com.example.other")),
                ("expired", try credentials.token(issuedAt: Date().addingTimeInterval(-7_200), lifetime: 3_600)),
            ]
            for (why, token) in refused {
                let answer = try await apiCall(server.apiProductionURL, path, token: token)
                #expect(answer.response.status == 401, "\(why)")
                #expect(answer.json["errorCode"] as? Int == 4_010_000, "\(why)")
                #expect(answer.json["signedAppTransactionInfo"] == nil, "\(why)")
            }
            let token = try credentials.token()
            simulator.failNext(1, with: .http503)
            #expect(try await apiCall(server.apiProductionURL, path, token: token).response.status == 503)
            let forced = try await apiCall(server.apiProductionURL, path, token: token, headers: [("X-Sim-Fault", "429")])
            #expect(forced.response.status == 429)
            #expect(forced.response.header("Retry-After").flatMap { Int64($0) } != nil)
            let good = try await apiCall(server.apiProductionURL, path, token: token)
            #expect(good.response.status == 200)
            #expect(good.json["signedAppTransactionInfo"] is String)
            simulator.setAPIRateLimit(0)
            let limited = try await apiCall(server.apiProductionURL, path, token: token)
            #expect(limited.response.status == 429)
            #expect(limited.json["errorCode"] as? Int == 4_290_000)
            let stats = simulator.stats().api
            #expect(stats["http_401"] == refused.count)
            #expect(stats["http_503"] == 1)
            #expect(stats["http_429"] == 2)
            #expect(stats["http_200"] == 1)
        }
    }
}
