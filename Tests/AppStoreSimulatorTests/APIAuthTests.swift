import AppStoreSimulator
import Crypto
import Foundation
import Testing

@Suite("App Store Server API: bearer tokens")
struct APIAuthTests {
    @Test func acceptsApplesTokenAndRefusesEveryBrokenOne() async throws {
        let credentials = try TestAPICredentials()
        let simulator = apiSimulator(credentials)
        let customer = try simulator.addCustomers([
            CustomerSpec(name: "paying", scenario: .trialRenews, productID: "com.example.pro.monthly", notificationVersion: .v2)
        ])[0]
        let id = try #require(customer.state(at: Date()).transactions.last?.transactionID)
        let path = "/inApps/v1/subscriptions/" + id
        try await withServer(simulator) { server in
            let good = try await apiCall(server.apiProductionURL, path, token: try credentials.token())
            #expect(good.response.status == 200)

            let refused: [(String, String?)] = [
                ("no token", nil),
                ("wrong key", try credentials.token(signer: P256.Signing.PrivateKey())),
                ("wrong kid", try credentials.token(keyID: "OTHERKEY01")),
                ("wrong aud", try credentials.token(audience: "appstoreconnect-v2")),
                ("wrong bid", try credentials.token(bundleID: "com.example.other")),
                ("expired", try credentials.token(issuedAt: Date().addingTimeInterval(-7_200), lifetime: 3_600)),
                ("lives over 60 min", try credentials.token(lifetime: 3_601)),
            ]
            for (why, token) in refused {
                let answer = try await apiCall(server.apiProductionURL, path, token: token)
                #expect(answer.response.status == 401, "\(why)")
                #expect(answer.json["errorCode"] as? Int == 4_010_000, "\(why)")
                #expect(answer.json["errorMessage"] is String, "\(why)")
            }
        }
    }

    @Test func withoutAConfiguredKeyEveryRequestIsRefused() async throws {
        let credentials = try TestAPICredentials()
        let simulator = makeSimulator()
        try await withServer(simulator) { server in
            let answer = try await apiCall(server.apiProductionURL, "/inApps/v1/transactions/1", token: try credentials.token())
            #expect(answer.response.status == 401)
        }
    }

    @Test func theKeySurvivesTheStateFolder() throws {
        let directory = try temporaryDirectory()
        #expect(try SimAPIKey.load(from: directory) == nil)
        let (key, _) = SimAPIKey.generate(keyID: "ABCDEFGHIJ", issuerID: "issuer-1")
        try key.save(in: directory)
        let loaded = try #require(try SimAPIKey.load(from: directory))
        #expect(loaded.keyID == "ABCDEFGHIJ" && loaded.issuerID == "issuer-1")
        #expect(loaded.publicKey.rawRepresentation == key.publicKey.rawRepresentation)
    }
}
