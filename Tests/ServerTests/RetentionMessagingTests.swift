import AppStore
import AppStoreServerAPI
import AppStoreSimulator
import Foundation
import HTTPClient
import Postgres
import Settings
import SigningTestSupport
import Subscriptions
import TestSupport
import Testing

/// `POST /retention/appstore`, the App Store's Get Retention Message request, through the
/// real service: requests signed by a test PKI the service trusts, each rule kind answered
/// from stored facts (a promotional offer signed for the request's own subscription), Apple's
/// default (`{}`) when nothing matches, forged, stale and foreign requests refused, and every
/// answer recorded afterwards.
@Suite("Retention messages: the real-time endpoint")
struct RetentionMessagingTests {
    static let appAppleID = "1234567890"
    static let messages = (0..<4).map { UUID(uuidString: "00000000-0000-4000-8000-00000000000\($0)")! }

    /// The rules: news subscribers in the USA see a message; customers in a trial are offered
    /// the yearly plan; active customers in Germany get a promotional offer; anyone still
    /// eligible for the news trial gets a message about it.
    static var rules: String {
        let m = messages.map { $0.uuidString.lowercased() }
        return """
            [
              {"match": {"product_id": "com.example.news.weekly", "storefront": "usa"}, "message": {"message_identifier": "\(m[0])"}},
              {"match": {"in_trial": true}, "alternate_product": {"message_identifier": "\(m[1])", "product_id": "com.example.pro.yearly"}},
              {"match": {"storefront": "DEU", "status": "active"},
               "promotional_offer": {"message_identifier": "\(m[2])", "product_id": "com.example.pro.monthly", "offer_id": "stay50"}},
              {"match": {"eligibility": {"com.example.news.weekly": "eligible"}}, "message": {"message_identifier": "\(m[3])"}}
            ]
            """
    }

    /// A test PKI the service trusts, the app's configuration with `rules` and an In-App Purchase key.
    struct Fixture {
        let pki: TestPKI
        let signing = OfferSignaturesTests.SigningKey()
        let files: [String]
        let settings: [String: String]

        init(rules: String = RetentionMessagingTests.rules) throws {
            pki = try TestPKI()
            let root = try TemporaryFile.write(pki.root.pem, name: "retention-root.pem")
            let config = try TemporaryFile.write(
                #"{"apps":[{"bundle_id":"\#(RunningService.bundleID)","app_apple_id":\#(RetentionMessagingTests.appAppleID),"retention":\#(rules)}]}"#,
                name: "retention-config.json")
            files = [root, config]
            settings = try signing.settings().merging(["APPSTORE_ROOT_CERTIFICATES": root, "SUBSCRIPTIOND_CONFIG": config]) { _, new in new
            }
        }

        /// A signed transaction of subscription `id` in `environment`, bought a minute ago.
        func transaction(
            _ id: String, product: String, storefront: String, trial: Bool = false, environment: String = "Sandbox"
        ) throws -> String {
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            var payload: [String: Any] = [
                "transactionId": id, "originalTransactionId": id, "bundleId": RunningService.bundleID, "productId": product,
                "environment": environment, "purchaseDate": now - 60_000, "expiresDate": now + 2_592_000_000, "signedDate": now,
                "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED", "storefront": storefront,
                "storefrontId": "143441", "currency": "USD", "price": 4990,
            ]
            if trial {
                payload["offerType"] = 1
                payload["offerDiscountType"] = "FREE_TRIAL"
            }
            if environment == "Production" { payload["appAppleId"] = Int(RetentionMessagingTests.appAppleID) }
            return try sign(payload, by: pki)
        }

        /// The body of a Get Retention Message request for subscription `id`, signed `age` ago by `signer`.
        func request(
            _ id: String, product: String = "com.example.pro.monthly", environment: String = "Sandbox",
            appAppleID: String = RetentionMessagingTests.appAppleID, age: TimeInterval = 1, requestIdentifier: UUID = UUID(),
            signer: TestPKI? = nil
        ) throws -> [String: Any] {
            let payload: [String: Any] = [
                "originalTransactionId": id, "appAppleId": Int(appAppleID) ?? 0, "productId": product, "userLocale": "en-US",
                "requestIdentifier": requestIdentifier.uuidString.lowercased(), "environment": environment,
                "signedDate": Int64((Date().timeIntervalSince1970 - age) * 1000),
            ]
            return ["signedPayload": try sign(payload, by: signer ?? pki)]
        }

        private func sign(_ payload: [String: Any], by pki: TestPKI) throws -> String {
            try TestJWS.sign(payload: String(decoding: try JSONSerialization.data(withJSONObject: payload), as: UTF8.self), by: pki)
        }

        func remove() {
            for file in files { try? FileManager.default.removeItem(atPath: file) }
            try? FileManager.default.removeItem(at: signing.file)
        }
    }

    /// Posts a retention request as the App Store does: no API key.
    static func ask(_ service: RunningService, _ body: [String: Any]) async throws -> HTTPClient.HTTPResponse {
        try await service.execute(
            HTTPClient.HTTPRequest(
                method: .post, url: service.baseURL + "/retention/appstore",
                headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: NotificationBodies.bytes(body),
                timeout: .seconds(15)))
    }

    @Test("each rule kind answers from the stored facts; no match and an unknown subscription answer {}; every answer is recorded")
    func rulesAnswer() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try await RunningService.with(settings: fixture.settings, prepare: ReceiptsAndEligibilityTests.importDemoCatalog) { service in
            let customers: [(user: String, id: String, product: String, storefront: String, trial: Bool)] = [
                ("ana", "7100000000000001", "com.example.news.weekly", "USA", false),
                ("ben", "7100000000000002", "com.example.pro.monthly", "USA", true),
                ("cem", "7100000000000003", "com.example.pro.monthly", "DEU", false),
                ("dan", "7100000000000004", "com.example.pro.monthly", "USA", false),
                ("eve", "7100000000000005", "com.example.news.weekly", "FRA", false),
            ]
            for customer in customers {
                let signed = try fixture.transaction(
                    customer.id, product: customer.product, storefront: customer.storefront, trial: customer.trial)
                let response = try await service.post("/v1/transactions", ["app_user_id": customer.user, "signed_transaction": signed])
                #expect(response.status == 200, "\(customer.user): \(String(decoding: response.body, as: UTF8.self))")
            }
            let m = Self.messages.map { $0.uuidString.lowercased() }

            let ana = try jsonObject(
                try await Self.ask(service, try fixture.request("7100000000000001", product: "com.example.news.weekly")))
            #expect(ana as NSDictionary == ["message": ["messageIdentifier": m[0]]] as NSDictionary)

            let ben = try jsonObject(try await Self.ask(service, try fixture.request("7100000000000002")))
            #expect(
                ben as NSDictionary
                    == ["alternateProduct": ["messageIdentifier": m[1], "productId": "com.example.pro.yearly"]] as NSDictionary)

            let cem = try jsonObject(try await Self.ask(service, try fixture.request("7100000000000003")))
            let offer = try #require(cem["promotionalOffer"] as? [String: Any])
            #expect(cem.count == 1 && offer["messageIdentifier"] as? String == m[2])
            let claims = try fixture.signing.verifiedClaims(try #require(offer["promotionalOfferSignatureV2"] as? String))
            #expect(claims["productId"] as? String == "com.example.pro.monthly")
            #expect(claims["offerIdentifier"] as? String == "stay50")
            // The promise names the subscription Apple's signed request named, and no other.
            #expect(claims["transactionId"] as? String == "7100000000000003")
            #expect(claims["bid"] as? String == RunningService.bundleID)

            let dan = try jsonObject(try await Self.ask(service, try fixture.request("7100000000000004")))
            #expect(dan as NSDictionary == ["message": ["messageIdentifier": m[3]]] as NSDictionary)

            // Subscribed to the news in France: no storefront rule, no trial, not eligible: Apple's default.
            let eve = try await Self.ask(service, try fixture.request("7100000000000005", product: "com.example.news.weekly"))
            #expect(eve.status == 200 && String(decoding: eve.body, as: UTF8.self) == "{}")
            let unknown = try await Self.ask(service, try fixture.request("7199999999999999"))
            #expect(unknown.status == 200 && String(decoding: unknown.body, as: UTF8.self) == "{}")

            // Recorded after the answers, in batches.
            let recorded = try await Polling.until(seconds: 10) {
                try await service.database.query("SELECT count(*)::int AS n FROM retention_answers").first?.decode("n", as: Int.self) == 6
            }
            #expect(recorded)
            let rows = try await service.database.query(
                "SELECT original_transaction_id, answer, reason, rule_index, offer_id FROM retention_answers ORDER BY original_transaction_id"
            )
            let summary = try rows.map {
                [
                    try $0.decode("original_transaction_id", as: String.self), try $0.decode("answer", as: String.self),
                    try $0.decode("reason", as: String.self), (try $0.decode("rule_index", as: Int?.self)).map(String.init) ?? "-",
                    try $0.decode("offer_id", as: String?.self) ?? "-",
                ].joined(separator: " ")
            }
            #expect(
                summary == [
                    "7100000000000001 message matched 0 -", "7100000000000002 alternate_product matched 1 -",
                    "7100000000000003 promotional_offer matched 2 stay50", "7100000000000004 message matched 3 -",
                    "7100000000000005 default no_match - -", "7199999999999999 default unknown_subscription - -",
                ])
        }
    }

    @Test("forged, stale, foreign and malformed requests are refused and nothing is recorded for them")
    func refusals() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try await RunningService.with(settings: fixture.settings, prepare: ReceiptsAndEligibilityTests.importDemoCatalog) { service in
            let signed = try fixture.transaction("7200000000000001", product: "com.example.pro.monthly", storefront: "DEU")
            #expect(try await service.post("/v1/transactions", ["app_user_id": "cem", "signed_transaction": signed]).status == 200)

            // Signed by a certificate chain the service does not trust.
            let forged = try await Self.ask(service, try fixture.request("7200000000000001", signer: try TestPKI(.init(name: "Forger"))))
            #expect(forged.status == 401)
            #expect(try jsonObject(forged)["promotionalOffer"] == nil)
            // Signed ten minutes ago: the App Store asks in real time.
            let stale = try await Self.ask(service, try fixture.request("7200000000000001", age: 600))
            #expect(stale.status == 401)
            #expect((try jsonObject(stale)["message"] as? String)?.contains("real time") == true)
            // Signed ten minutes ahead: a request kept for later is no real-time request either.
            #expect(try await Self.ask(service, try fixture.request("7200000000000001", age: -600)).status == 401)
            // In Production the app's Apple ID must be ours.
            let foreign = try await Self.ask(
                service, try fixture.request("7200000000000001", environment: "Production", appAppleID: "999"))
            #expect(foreign.status == 401)
            // Not JSON, no signedPayload, not a JWS.
            let notJSON = try await service.execute(
                HTTPClient.HTTPRequest(
                    method: .post, url: service.baseURL + "/retention/appstore",
                    headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Array("{".utf8), timeout: .seconds(5)))
            #expect(notJSON.status == 400)
            #expect(try await Self.ask(service, ["signed": "x"]).status == 400)
            #expect(try await Self.ask(service, ["signedPayload": "a.b"]).status == 400)

            // The genuine request still gets its offer, and only it is recorded.
            let genuine = try await Self.ask(service, try fixture.request("7200000000000001"))
            #expect(genuine.status == 200)
            #expect(try jsonObject(genuine)["promotionalOffer"] != nil)
            let recorded = try await Polling.until(seconds: 10) {
                try await service.database.query("SELECT count(*)::int AS n FROM retention_answers").first?.decode("n", as: Int.self) == 1
            }
            #expect(recorded)
            // A Production subscription of our app, asked about with our Apple ID, is answered.
            let production = try fixture.transaction(
                "7200000000000002", product: "com.example.pro.monthly", storefront: "DEU", environment: "Production")
            #expect(try await service.post("/v1/transactions", ["app_user_id": "pia", "signed_transaction": production]).status == 200)
            let answered = try await Self.ask(service, try fixture.request("7200000000000002", environment: "Production"))
            #expect(answered.status == 200)
            #expect(try jsonObject(answered)["promotionalOffer"] != nil)
        }
    }

    @Test("a rule naming a product the catalog does not list stops startup naming it")
    func unknownProductStopsStartup() async throws {
        let fixture = try Fixture(
            rules: #"[{"match": {"product_id": "com.example.gone"}, "message": {"message_identifier": "\#(Self.messages[0])"}}]"#)
        defer { fixture.remove() }
        await #expect {
            try await RunningService.with(settings: fixture.settings, prepare: ReceiptsAndEligibilityTests.importDemoCatalog) { _ in }
        } throws: { error in
            let line = "\(error)"
            return (error as? ConfigurationError)?.setting == "SUBSCRIPTIOND_CONFIG" && line.contains("com.example.gone")
                && line.contains("retention[0]")
        }
    }

    @Test("a database that stops answering costs the customer Apple's default message at once, not a late answer; it heals")
    func stuckDatabaseAnswersDefault() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let proxy = try TCPProxy(forwardingTo: try TestEnvironment.adminURL())
        defer { proxy.close() }
        let settings = fixture.settings.merging(["DATABASE_LEASE_TIMEOUT_MS": "1000", "DATABASE_STATEMENT_TIMEOUT_MS": "1000"]) { _, new in
            new
        }
        try await RunningService.with(
            settings: settings, runsWorker: false, databaseURL: { proxy.url(through: $0) },
            prepare: ReceiptsAndEligibilityTests.importDemoCatalog
        ) { service in
            let signed = try fixture.transaction("7300000000000001", product: "com.example.pro.monthly", storefront: "DEU")
            #expect(try await service.post("/v1/transactions", ["app_user_id": "cem", "signed_transaction": signed]).status == 200)
            #expect(try jsonObject(try await Self.ask(service, try fixture.request("7300000000000001")))["promotionalOffer"] != nil)

            proxy.blackhole()
            for _ in 0..<3 {
                let started = ContinuousClock.now
                let response = try await Self.ask(service, try fixture.request("7300000000000001"))
                let took = ContinuousClock.now - started
                #expect(response.status == 200 && String(decoding: response.body, as: UTF8.self) == "{}")
                // The deadline is 250 ms; Apple gives up near 700 ms. Generous for a loaded test machine.
                #expect(took < .seconds(3), "answered after \(took)")
            }
            proxy.forward()
            let healed = try await Polling.until(seconds: 60) {
                try jsonObject(try await Self.ask(service, try fixture.request("7300000000000001")))["promotionalOffer"] != nil
            }
            #expect(healed)
        }
    }

    @Test("appstore-sim's performance test of subscriptiond's own endpoint passes, every request answered by the rule and recorded")
    func simulatorPerformanceTestPasses() async throws {
        try await RetentionWorld.with(seed: 20_261_209) { world in
            let message = Self.messages[0].uuidString.lowercased()
            let config = try TemporaryFile.write(
                #"{"apps":[{"bundle_id":"\#(RunningService.bundleID)","retention":[{"match":{"product_id":"com.example.pro.monthly"},"message":{"message_identifier":"\#(message)"}}]}]}"#,
                name: "retention-sim-config.json")
            defer { try? FileManager.default.removeItem(atPath: config) }
            let settings = world.world.settings.merging(["SUBSCRIPTIOND_CONFIG": config]) { _, new in new }
            try await RunningService.with(settings: settings, prepare: ReceiptsAndEligibilityTests.importDemoCatalog) { service in
                let target = try #require(URL(string: service.baseURL + "/notifications/appstore"))
                let plan = DeliveryPlan.order(world.simulator.notifications(), duplicates: 1, shuffle: false, seed: 1)
                let report = await NotificationSender(target: target, retry: .persistent, timeout: .seconds(60), concurrency: 2).deliver(
                    plan)
                #expect(report.failed.isEmpty, "\(report.failureSummary)")
                try await service.waitUntilSettled(timeout: .seconds(60))

                world.simulator.setPerformanceTestConfig(
                    SimPerformanceTestConfig(
                        maxConcurrentRequests: 10, totalRequests: 100, totalDurationMilliseconds: 60_000,
                        responseTimeThresholdMilliseconds: 700, successRateThreshold: 95))
                try await world.client.configureRealtimeURL(service.baseURL + "/retention/appstore", environment: .sandbox)
                let started = try await world.client.startRetentionPerformanceTest(originalTransactionID: world.originalTransactionID)
                let result = try await world.finishedResult(started.requestID)
                #expect(result.outcome == .pass, "\(result)")
                #expect(result.successRate == 100 && result.failures.isEmpty, "\(result)")
                let recorded = try await Polling.until(seconds: 10) {
                    try await service.database.query(
                        "SELECT count(*)::int AS n FROM retention_answers WHERE answer = 'message' AND message_identifier = \(message)::uuid"
                    ).first?.decode("n", as: Int.self) == 100
                }
                #expect(recorded)
            }
        }
    }
}
