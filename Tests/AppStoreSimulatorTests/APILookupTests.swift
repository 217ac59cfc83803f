import AppStoreSimulator
import Crypto
import Foundation
import Testing

@Suite("App Store Server API: statuses, history, transactions")
struct APILookupTests {
    @Test func statusesComeFromTheCurrentStateSignedByTheSimulator() async throws {
        let credentials = try TestAPICredentials()
        let simulator = apiSimulator(credentials)
        let customer = try simulator.addCustomers([
            CustomerSpec(name: "grace", scenario: .gracePeriod, productID: "com.example.pro.monthly", renewals: 1, notificationVersion: .v2)
        ])[0]
        let transactions = customer.state(at: Date()).transactions
        let first = try #require(transactions.first)
        let leafKey = try simulator.signingPKI().leaf.key.publicKey
        try await withServer(simulator) { server in
            // Any transaction of the subscription finds it, the oldest included.
            let (response, json) = try await apiCall(
                server.apiProductionURL, "/inApps/v1/subscriptions/" + first.transactionID, token: try credentials.token())
            #expect(response.status == 200)
            #expect(json["environment"] as? String == "Production")
            #expect(json["bundleId"] as? String == "com.example.app")
            let groups = try #require(json["data"] as? [[String: Any]])
            #expect(groups.count == 1)
            #expect(groups.first?["subscriptionGroupIdentifier"] as? String == "20500000")
            let last = try #require((groups.first?["lastTransactions"] as? [[String: Any]])?.first)
            #expect(last["status"] as? Int == 4)
            #expect(last["originalTransactionId"] as? String == first.originalTransactionID)
            let transaction = try DecodedJWS(try #require(last["signedTransactionInfo"] as? String))
            let renewal = try DecodedJWS(try #require(last["signedRenewalInfo"] as? String))
            #expect(transaction.verifies(with: leafKey) && renewal.verifies(with: leafKey))
            #expect(try transaction.chain().count == 3)
            #expect(transaction.payload["transactionId"] as? String == transactions.last?.transactionID)
            #expect(renewal.payload["isInBillingRetryPeriod"] as? Bool == true)
        }
    }

    @Test("Set App Account Token: a UUID on an original transaction reaches every later payload; a bad UUID is 400, an unknown id 404")
    func setAppAccountToken() async throws {
        let credentials = try TestAPICredentials()
        let simulator = apiSimulator(credentials)
        let customer = try simulator.addCustomers([
            CustomerSpec(name: "olly", scenario: .trialRenews, productID: "com.example.pro.monthly", renewals: 1, notificationVersion: .v2)
        ])[0]
        let original = try #require(customer.state(at: Date()).transactions.first?.originalTransactionID)
        let path = "/inApps/v1/transactions/\(original)/appAccountToken"
        try await withServer(simulator) { server in
            let token = "5c8e4f1a-7b2d-4e6f-9a1b-3c4d5e6f7a8b"
            let bad = try await apiCall(
                server.apiProductionURL, path, method: "PUT", token: try credentials.token(), body: Array(#"{"appAccountToken":"x"}"#.utf8))
            #expect(bad.response.status == 400 && bad.json["errorCode"] as? Int == 4_000_183)
            let unknown = try await apiCall(
                server.apiProductionURL, "/inApps/v1/transactions/123/appAccountToken", method: "PUT", token: try credentials.token(),
                body: Array(#"{"appAccountToken":"\#(token)"}"#.utf8))
            #expect(unknown.response.status == 404)
            let set = try await apiCall(
                server.apiProductionURL, path, method: "PUT", token: try credentials.token(),
                body: Array(#"{"appAccountToken":"\#(token.uppercased())"}"#.utf8))
            #expect(set.response.status == 200)
            let (_, json) = try await apiCall(
                server.apiProductionURL, "/inApps/v1/transactions/" + original, token: try credentials.token())
            let transaction = try DecodedJWS(try #require(json["signedTransactionInfo"] as? String))
            #expect(transaction.payload["appAccountToken"] as? String == token)
        }
    }

    @Test func historyPagesByTwentyWithRevisions() async throws {
        let credentials = try TestAPICredentials()
        let simulator = apiSimulator(credentials)
        let customer = try simulator.addCustomers([
            CustomerSpec(
                name: "loyal", scenario: .trialRenews, productID: "com.example.news.weekly", renewals: 50, notificationVersion: .v2)
        ])[0]
        let expected = customer.state(at: Date()).transactions.map(\.transactionID)
        #expect(expected.count > 40)
        let id = try #require(expected.last)
        try await withServer(simulator) { server in
            var seen: [String] = []
            var revision: String?
            var pages = 0
            var more = true
            while more {
                let path = "/inApps/v2/history/\(id)" + (revision.map { "?revision=" + $0 } ?? "")
                let (response, json) = try await apiCall(server.apiProductionURL, path, token: try credentials.token())
                #expect(response.status == 200)
                let signed = try #require(json["signedTransactions"] as? [String])
                #expect(signed.count <= 20)
                seen += try signed.map { try #require(try DecodedJWS($0).payload["transactionId"] as? String) }
                more = json["hasMore"] as? Bool ?? false
                revision = json["revision"] as? String
                pages += 1
                if pages > 10 { break }
            }
            #expect(pages == (expected.count + 19) / 20)
            #expect(Set(seen) == Set(expected) && seen.count == expected.count)
            let bad = try await apiCall(
                server.apiProductionURL, "/inApps/v2/history/\(id)?revision=nonsense", token: try credentials.token())
            #expect(bad.response.status == 400)
        }
    }

    @Test func aTransactionIsFoundOnlyInItsOwnEnvironment() async throws {
        let credentials = try TestAPICredentials()
        let simulator = apiSimulator(credentials)
        let customers = try simulator.addCustomers([
            CustomerSpec(name: "prod", scenario: .trialRenews, environment: .production, notificationVersion: .v2),
            CustomerSpec(name: "sand", scenario: .trialRenews, environment: .sandbox, notificationVersion: .v2),
        ])
        let prodID = try #require(customers[0].state(at: Date()).transactions.last?.transactionID)
        let sandID = try #require(customers[1].state(at: Date()).transactions.last?.transactionID)
        try await withServer(simulator) { server in
            let token = try credentials.token()
            for (base, id, found) in [
                (server.apiProductionURL, prodID, true), (server.apiSandboxURL, prodID, false),
                (server.apiSandboxURL, sandID, true), (server.apiProductionURL, sandID, false),
                (server.apiProductionURL, "999999999", false),
            ] {
                for path in ["/inApps/v1/transactions/", "/inApps/v1/subscriptions/", "/inApps/v2/history/"] {
                    let (response, json) = try await apiCall(base, path + id, token: token)
                    #expect(response.status == (found ? 200 : 404), "\(base.path) \(path)\(id)")
                    if !found { #expect(json["errorCode"] as? Int == 4_040_010) }
                }
            }
            let (_, info) = try await apiCall(server.apiSandboxURL, "/inApps/v1/transactions/" + sandID, token: token)
            let payload = try DecodedJWS(try #require(info["signedTransactionInfo"] as? String)).payload
            #expect(payload["transactionId"] as? String == sandID)
            #expect(payload["environment"] as? String == "Sandbox")
        }
    }
}
