import AppStoreSimulator
import Foundation
import HTTPClient
import Postgres
import SigningTestSupport
import TestSupport
import Testing

/// The App Store Server API against appstore-sim, through subscriptiond's libcurl client:
/// backfill of dropped notifications (resumable), sync within the rate limit, the worker's
/// reconciliation, transaction lookups and test notifications.
@Suite("App Store Server API end to end against appstore-sim", .serialized)
struct AppStoreAPIEndToEndTests {
    /// A simulator with an API key, serving, and the settings that point subscriptiond at it.
    struct World: Sendable {
        let simulator: AppStoreSimulator
        let server: SimulatorServer
        let settings: [String: String]
        let files: [URL]

        /// One app, with the key; `scenarios` the lifecycles customers are drawn from (purchases
        /// of every kind by default).
        static func make(
            customers: Int, seed: UInt64, sandboxShare: Double = 1.0, scenarios: [ScenarioKind] = ScenarioKind.allCases
        ) async throws -> World {
            let simulator = AppStoreSimulator(configuration: .demo(seed: seed, sharedSecret: RunningService.sharedSecret, paidApp: false))
            try simulator.addRandomCustomers(
                customers, seed: seed, sandboxShare: sandboxShare, notificationVersions: .v2, scenarios: scenarios)
            let (key, privateKeyPEM) = SimAPIKey.generate()
            simulator.setAPIKey(key)
            let directory = FileManager.default.temporaryDirectory
            let keyFile = directory.appendingPathComponent("sim-key-\(UUID().uuidString).p8")
            let rootFile = directory.appendingPathComponent("sim-root-\(UUID().uuidString).pem")
            try Data(privateKeyPEM.utf8).write(to: keyFile)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
            try Data(try simulator.signingPKI().root.pem.utf8).write(to: rootFile)
            let server = try await SimulatorServer.start(simulator: simulator)
            let app = try #require(simulator.configuration.apps.first)
            return World(
                simulator: simulator, server: server,
                settings: [
                    "VERIFY_RECEIPT_URL": server.productionURL.absoluteString,
                    "VERIFY_RECEIPT_SANDBOX_URL": server.sandboxURL.absoluteString,
                    "APPSTORE_ROOT_CERTIFICATES": rootFile.path, "APPSTORE_RECEIPT_ROOT_CERTIFICATES": rootFile.path,
                    "APPSTORE_APP_APPLE_ID": String(app.appAppleID),
                    "APPSTORE_ISSUER_ID": key.issuerID, "APPSTORE_KEY_ID": key.keyID, "APPSTORE_PRIVATE_KEY_FILE": keyFile.path,
                    "APPSTORE_API_URL": server.apiProductionURL.absoluteString,
                    "APPSTORE_API_SANDBOX_URL": server.apiSandboxURL.absoluteString,
                ], files: [keyFile, rootFile])
        }

        /// An app receipt holding `purchases`, signed by the simulator's PKI as Apple signs receipts.
        func receipt(_ purchases: [TestAppReceipt.Purchase]) throws -> String {
            let pki = try simulator.signingPKI()
            return try TestAppReceipt.signedBase64(
                bundleID: RunningService.bundleID, purchases: purchases,
                by: .init(
                    leaf: pki.leaf.certificate, key: pki.leaf.key, intermediates: [pki.intermediate.certificate]))
        }

        func close() async {
            await server.shutdown()
            for file in files { try? FileManager.default.removeItem(at: file) }
        }
    }

    private func count(_ service: RunningService, _ sql: PostgresQuery) async throws -> Int {
        try await service.database.query(sql)[0].decode("n")
    }

    @Test("backfill finds exactly the dropped notifications over many pages, resumes after being killed, and everyone agrees after")
    func backfillResumesAndHeals() async throws {
        let world = try await World.make(customers: 165, seed: 20_261_125)
        defer { Task { await world.close() } }
        try await RunningService.with(settings: world.settings) { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            let notifications = world.simulator.notifications()
            let drops = DropPolicy(rate: 0.3, seed: 7)
            let dropped = drops.dropped(notifications)
            #expect(notifications.count >= 500, "\(notifications.count) notifications")
            #expect(!dropped.isEmpty)
            let target = try #require(URL(string: service.baseURL + "/notifications/appstore"))
            let report = await NotificationSender(
                target: target, retry: .persistent, timeout: .seconds(60), concurrency: 8, drops: drops, simulator: world.simulator
            ).deliver(DeliveryPlan.order(notifications, duplicates: 1, shuffle: true, seed: 7))
            #expect(report.failed.isEmpty, "\(report.failureSummary)")
            try await service.waitUntilSettled(timeout: .seconds(300))
            #expect(try await count(service, "SELECT count(*) AS n FROM notifications") == notifications.count - dropped.count)

            // Killed (SIGKILL) after a dozen pages, then run again.
            // Subscriptions' sandbox periods last minutes; one-time purchases are dated days back.
            // From the oldest dropped notification, within the 180 days Apple keeps.
            let oldest = max(Date().addingTimeInterval(-179 * 86_400), (dropped.map(\.date).min() ?? Date()).addingTimeInterval(-60))
            let since = ISO8601DateFormatter().string(from: oldest)
            let arguments = ["notifications", "backfill", "--since", since, "--environment", "Sandbox", "--json"]
            let environment = service.environment.merging(["DATABASE_URL": service.databaseURL]) { _, new in new }
            world.simulator.resetStats()
            let simulator = world.simulator
            let first = try await CLI.spawn(
                CLI.binary.path, arguments, databaseURL: service.databaseURL, environment: environment,
                interruptWhen: { simulator.stats().api["http_200", default: 0] >= 12 }, signal: SIGKILL)
            #expect(first.status != 0, "the first run should have been stopped half way: \(simulator.stats().api)")
            let second = try await CLI.run(arguments, databaseURL: service.databaseURL, environment: environment)
            #expect(second.status == 0, "\(second.stderr)")
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
            #expect((summary["pages"] as? Int ?? 0) >= 25, "\(summary)")
            #expect(summary["stored"] as? Int == dropped.count, "\(summary)")
            #expect(try await count(service, "SELECT count(*) AS n FROM notifications") == notifications.count)
            #expect(try await count(service, "SELECT count(*) AS n FROM backfill_runs WHERE finished_at IS NOT NULL") == 1)

            try await service.waitUntilSettled(timeout: .seconds(300))
            let check = SubscriptiondCheck(
                baseURL: try #require(URL(string: service.baseURL)), adminToken: RunningService.adminToken, simulator: world.simulator)
            let mismatches = try await check.statusMismatches()
            #expect(mismatches.isEmpty, "\(mismatches.count) mismatches: \(mismatches.prefix(5))")
            #expect(try await check.linkCustomers().isEmpty)
            try await service.waitUntilSettled(timeout: .seconds(120))
            let results = try await check.compare(
                productIDs: world.simulator.configuration.catalog.products.map(\.productID), until: Date().addingTimeInterval(60))
            #expect(results.filter { !$0.agrees }.isEmpty, "\(results.filter { !$0.agrees }.prefix(3).map(\.mismatches))")
        }
    }

    @Test(
        "2,000 sync lookups against a simulator held to Apple's 50/s provoke no 429; with 429s forced, every request completes after its Retry-After"
    )
    func syncWithinTheRateLimit() async throws {
        let world = try await World.make(
            customers: 1_000, seed: 20_261_126, sandboxShare: 0, scenarios: ScenarioKind.subscriptionLifecycles)
        defer { Task { await world.close() } }
        try await RunningService.with(settings: world.settings, runsWorker: false) { service in
            // Every subscription Apple knows, stored as a stale earlier state (expired, only its
            // ids): what a server that missed every notification would hold. sync heals it.
            let truth = world.simulator.truth().customers.flatMap(\.subscriptions)
            #expect(truth.count >= 1_000, "\(truth.count) subscriptions")
            try await service.database.execute(
                """
                INSERT INTO subscriptions (environment, original_transaction_id, bundle_id, product_id, status, latest_transaction_id)
                SELECT 'Production', id, \(RunningService.bundleID), product, 'expired', id
                FROM unnest(\(truth.map(\.originalTransactionID))::text[], \(truth.map(\.productID))::text[]) AS t(id, product)
                """)
            let environment = service.environment.merging(["DATABASE_URL": service.databaseURL]) { _, new in new }

            // Apple's production limit, counted per one-second window; each subscription takes
            // Get All Subscription Statuses plus at least one page of history.
            world.simulator.setAPIRateLimit(50)
            world.simulator.resetStats()
            let synced = try await CLI.run(
                ["sync", "--all", "--concurrency", "32", "--json"], databaseURL: service.databaseURL, environment: environment)
            #expect(synced.status == 0, "\(synced.stderr)")
            #expect(synced.stdout.contains("\"synced\" : \(truth.count)"), "\(synced.stdout)")
            let stats = world.simulator.stats().api
            #expect(stats["http_429", default: 0] == 0, "subscriptiond provoked 429s: \(stats)")
            #expect(stats["http_200", default: 0] >= 2_000 && stats["http_200", default: 0] >= 2 * truth.count, "\(stats)")
            let check = SubscriptiondCheck(
                baseURL: try #require(URL(string: service.baseURL)), adminToken: RunningService.adminToken, simulator: world.simulator)
            let mismatches = try await check.statusMismatches()
            #expect(mismatches.isEmpty, "\(mismatches.count) mismatches after sync: \(mismatches.prefix(5))")

            // Apple answers 429 (Retry-After one second on): every request still completes.
            world.simulator.setAPIRateLimit(nil)
            world.simulator.resetStats()
            world.simulator.failNext(4, with: .http429)
            let some = truth.prefix(10).map(\.originalTransactionID)
            let forced = try await CLI.run(["sync", "--json"] + some, databaseURL: service.databaseURL, environment: environment)
            #expect(forced.status == 0, "\(forced.stderr)")
            #expect(forced.stdout.contains("\"synced\" : 10"), "\(forced.stdout)")
            #expect(world.simulator.stats().api["http_429", default: 0] == 4)
        }
    }

    /// An attempt used to outlive its lease while the API client waited out Retry-After, so
    /// claim after claim ended without an outcome and a healthy notification was buried as
    /// poison. Now the attempt stops at its deadline (inside the lease) and is retried.
    @Test("the API answers 429 with Retry-After 25 s for a minute: a v2 notification ends processed, never dead")
    func longRateLimitDoesNotBuryANotification() async throws {
        let world = try await World.make(customers: 1, seed: 20_261_124, scenarios: ScenarioKind.subscriptionLifecycles)
        defer { Task { await world.close() } }
        // A lease shorter than one Retry-After wait: every uncut attempt would outlive it.
        try await RunningService.with(settings: world.settings.merging(["WORKER_LEASE_MS": "20000"]) { _, new in new }) { service in
            let notification = try #require(world.simulator.notifications().first)
            world.simulator.holdAPI(until: Date().addingTimeInterval(60), retryAfter: 25)
            let target = try #require(URL(string: service.baseURL + "/notifications/appstore"))
            let report = await NotificationSender(
                target: target, retry: .persistent, timeout: .seconds(30), concurrency: 1, drops: DropPolicy(rate: 0, seed: 1),
                simulator: world.simulator
            ).deliver(notification)
            #expect(report.failed.isEmpty)
            try await service.waitUntilSettled(timeout: .seconds(180))
            #expect(try await service.stateCounts() == ["processed": 1])
            let row = try #require(
                try await service.database.query("SELECT attempts, unfinished_claims, isolated_claims FROM notifications").first)
            #expect(try row.decode("attempts", as: Int.self) >= 2, "the held minute must have cut at least one attempt")
            #expect(try row.decode("unfinished_claims", as: Int.self) == 0)
            let cut = try await count(service, "SELECT count(*) AS n FROM notification_attempts WHERE error LIKE '%deadline%'")
            #expect(cut >= 1)
            #expect(world.simulator.stats().api["http_429", default: 0] >= 2)
        }
    }

    @Test(
        "POST /v1/transactions with a transaction_id: linked (sandbox found after production's 404), 422 unknown, 202 then finished when the API is down"
    )
    func transactionLookups() async throws {
        let world = try await World.make(customers: 6, seed: 20_261_127, scenarios: ScenarioKind.subscriptionLifecycles)
        defer { Task { await world.close() } }
        try await RunningService.with(settings: world.settings.merging(["RECEIPT_WAIT_MS": "1500"]) { _, new in new }) { service in
            let customers = world.simulator.truth().customers.filter { !$0.subscriptions.isEmpty }
            let first = try #require(customers.first)
            let id = try #require(first.subscriptions.first?.originalTransactionID)
            let linked = try await service.post("/v1/transactions", ["app_user_id": "lookup-user", "transaction_id": id])
            #expect(linked.status == 200, "\(String(decoding: linked.body, as: UTF8.self))")
            #expect((try jsonObject(linked)["subscriptions"] as? [Any])?.count == 1)
            #expect(try await service.post("/v1/transactions", ["app_user_id": "nobody", "transaction_id": "999999999999"]).status == 422)

            let second = try #require(customers.dropFirst().first?.subscriptions.first?.originalTransactionID)
            world.simulator.failNext(12, with: .hang)
            let queued = try await service.post("/v1/transactions", ["app_user_id": "later-user", "transaction_id": second])
            #expect(queued.status == 202)
            world.simulator.clearFaults()
            try await service.waitUntilSettled(timeout: .seconds(120))
            #expect(try await service.get("/v1/subscribers/later-user").status == 200)
        }
    }

    @Test(
        "POST /v1/transactions with a one-time purchase's id reads it with Get Transaction Info; an app that grandfathers also reads the customer's original version"
    )
    func oneTimePurchaseLookups() async throws {
        let world = try await World.make(customers: 12, seed: 20_261_131, scenarios: [.lifetime, .consumable, .passesStack])
        defer { Task { await world.close() } }
        // The demo app grandfathers everyone who first bought before 2.0: the simulator's customers say 1.0.
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("grandfather-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: config) }
        try Data(#"{"apps":[{"bundle_id":"\#(RunningService.bundleID)","grandfather":{"before_version":"2.0","entitlement":"pro"}}]}"#.utf8)
            .write(to: config)
        try await RunningService.with(settings: world.settings.merging(["SUBSCRIPTIOND_CONFIG": config.path]) { _, new in new }) {
            service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            var sources: [String: String] = [:]
            for customer in world.simulator.truth().customers {
                let purchase = try #require(customer.purchases.first)
                let linked = try await service.post(
                    "/v1/transactions", ["app_user_id": customer.appUserID, "transaction_id": purchase.transactionID])
                #expect(linked.status == 200, "\(String(decoding: linked.body, as: UTF8.self))")
                let body = try jsonObject(linked)
                let purchases = (body["purchases"] as? [[String: Any]] ?? []).compactMap { $0["transaction_id"] as? String }
                #expect(purchases.contains(purchase.transactionID), "\(customer.appUserID): \(purchases)")
                let pro = (body["entitlements"] as? [String: Any])?["pro"] as? [String: Any]
                #expect(pro?["active"] as? Bool == true, "\(customer.appUserID): \(String(decoding: linked.body, as: UTF8.self))")
                sources[customer.scenario.rawValue] = pro?["source"] as? String
            }
            // A lifetime unlock lasts for good and comes first among equals; a consumable grants
            // nothing, so the grandfathered version (1.0 < 2.0, read from Get App Transaction Info) does.
            #expect(sources["lifetime"] == "non_consumable")
            #expect(sources["consumable"] == "grandfathered")
            #expect(world.simulator.stats().api["http_200", default: 0] > 0)
        }
    }

    @Test("POST /v1/receipts for an app with an API key and no shared secret: the receipt's transaction id is looked up")
    func receiptsThroughTheAPI() async throws {
        let world = try await World.make(customers: 6, seed: 20_261_129)
        defer { Task { await world.close() } }
        try await RunningService.with(settings: world.settings.merging(["APPSTORE_SHARED_SECRET": ""]) { _, new in new }) { service in
            let customer = try #require(world.simulator.truth().customers.first { !$0.subscriptions.isEmpty })
            let subscription = try #require(customer.subscriptions.first)
            let proven: [TestAppReceipt.Purchase] = [
                .init(transactionID: subscription.originalTransactionID, originalTransactionID: subscription.originalTransactionID)
            ]
            world.simulator.resetStats()

            // The reproduction from review: an unsigned PKCS#7 container carrying the customer's
            // real transaction id is refused before anything is looked up, and links nobody.
            let forged = try TestAppReceipt.base64(bundleID: RunningService.bundleID, purchases: proven)
            let refused = try await service.post("/v1/receipts", ["app_user_id": "thief", "receipt_data": forged])
            #expect(refused.status == 422, "\(String(decoding: refused.body, as: UTF8.self))")
            #expect(String(decoding: refused.body, as: UTF8.self).contains("not signed by the App Store"))
            #expect(try await service.get("/v1/subscribers/thief").status == 404)
            #expect(world.simulator.stats().api.isEmpty, "nothing was looked up")
            // Signed, but for another app.
            let pki = try world.simulator.signingPKI()
            let otherApp = try TestAppReceipt.signedBase64(
                bundleID: "com.example.other", purchases: proven,
                by: .init(
                    leaf: pki.leaf.certificate, key: pki.leaf.key, intermediates: [pki.intermediate.certificate]))
            #expect(try await service.post("/v1/receipts", ["app_user_id": "thief", "receipt_data": otherApp]).status == 422)

            let receipt = try world.receipt(proven)
            let linked = try await service.post("/v1/receipts", ["app_user_id": "receipt-user", "receipt_data": receipt])
            #expect(linked.status == 200, "\(String(decoding: linked.body, as: UTF8.self))")
            let listed = try #require(try jsonObject(linked)["subscriptions"] as? [[String: Any]])
            #expect(listed.map { $0["original_transaction_id"] as? String } == [subscription.originalTransactionID])
            #expect(world.simulator.stats().total == 0, "no verifyReceipt call without a shared secret")

            // A receipt whose transaction Apple does not know, one without purchases, and one that is no receipt.
            let unknown = try world.receipt([.init(transactionID: "999999999999", originalTransactionID: nil)])
            #expect(try await service.post("/v1/receipts", ["app_user_id": "receipt-user", "receipt_data": unknown]).status == 422)
            let empty = try world.receipt([])
            let none = try await service.post("/v1/receipts", ["app_user_id": "receipt-user", "receipt_data": empty])
            #expect(none.status == 422)
            #expect(String(decoding: none.body, as: UTF8.self).contains("no in-app purchase"))
            let garbage = try await service.post("/v1/receipts", ["app_user_id": "receipt-user", "receipt_data": "bm90IGEgcmVjZWlwdA=="])
            #expect(garbage.status == 400)
            #expect(String(decoding: garbage.body, as: UTF8.self).contains("PKCS#7"))
        }
    }

    @Test("POST /v1/eligibility with receipt_data for an app without a shared secret: the customer's history from the API decides")
    func eligibilityThroughTheAPI() async throws {
        let world = try await World.make(customers: 12, seed: 20_261_130, scenarios: ScenarioKind.subscriptionLifecycles)
        defer { Task { await world.close() } }
        try await RunningService.with(settings: world.settings.merging(["APPSTORE_SHARED_SECRET": ""]) { _, new in new }) { service in
            try await ReceiptsAndEligibilityTests.importDemoCatalog(service.database)
            let productIDs = world.simulator.configuration.catalog.products.map(\.productID)
            world.simulator.resetStats()
            var asked = 0
            var answersSeen: Set<String> = []
            for customer in world.simulator.customers {
                let truth = world.simulator.truth(of: customer, at: Date())
                guard let subscription = truth.subscriptions.first else { continue }
                // Any transaction of the customer will do: the API answers for the whole customer.
                let receipt = try world.receipt([
                    .init(transactionID: subscription.originalTransactionID, originalTransactionID: subscription.originalTransactionID)
                ])
                let answer = try await service.post("/v1/eligibility", ["receipt_data": receipt, "product_ids": productIDs])
                #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
                let eligibility = try #require(try jsonObject(answer)["eligibility"] as? [String: String])
                let expected = truth.eligibility.filter { productIDs.contains($0.key) }.mapValues(\.rawValue)
                let after = world.simulator.truth(of: customer, at: Date()).eligibility.filter { productIDs.contains($0.key) }.mapValues(
                    \.rawValue)
                #expect(eligibility == expected || eligibility == after, "\(customer.id): \(eligibility) vs the truth \(expected)")
                answersSeen.formUnion(eligibility.values)
                asked += 1
            }
            #expect(asked >= 6, "\(asked) customers with a subscription")
            #expect(world.simulator.stats().total == 0, "no verifyReceipt call without a shared secret")
            #expect(answersSeen.isSuperset(of: ["eligible", "ineligible"]), "\(answersSeen)")

            // A transaction Apple does not know, a receipt without purchases, and one that is no receipt.
            let unknown = try world.receipt([.init(transactionID: "999999999999", originalTransactionID: nil)])
            let refused = try await service.post("/v1/eligibility", ["receipt_data": unknown, "product_ids": productIDs])
            #expect(refused.status == 422, "\(String(decoding: refused.body, as: UTF8.self))")
            // An unsigned container naming a real customer's transaction reveals nothing of them.
            let real = try #require(world.simulator.truth().customers.lazy.compactMap(\.subscriptions.first).first).originalTransactionID
            let forged = try TestAppReceipt.base64(
                bundleID: RunningService.bundleID, purchases: [.init(transactionID: real, originalTransactionID: real)])
            let unproven = try await service.post("/v1/eligibility", ["receipt_data": forged, "product_ids": productIDs])
            #expect(unproven.status == 422 && String(decoding: unproven.body, as: UTF8.self).contains("not signed by the App Store"))
            let empty = try world.receipt([])
            #expect(try await service.post("/v1/eligibility", ["receipt_data": empty, "product_ids": productIDs]).status == 422)
            #expect(
                try await service.post("/v1/eligibility", ["receipt_data": "bm90IGEgcmVjZWlwdA==", "product_ids": productIDs]).status == 400
            )
        }
    }

    @Test("test-notification: Apple's TEST arrives and the command says so")
    func testNotification() async throws {
        let world = try await World.make(customers: 1, seed: 20_261_128, scenarios: ScenarioKind.subscriptionLifecycles)
        defer { Task { await world.close() } }
        try await RunningService.with(settings: world.settings) { service in
            world.simulator.setNotificationTarget(URL(string: service.baseURL + "/notifications/appstore"))
            let environment = service.environment.merging(["DATABASE_URL": service.databaseURL]) { _, new in new }
            let result = try await CLI.run(
                ["test-notification", "--environment", "Sandbox", "--wait", "30"], databaseURL: service.databaseURL,
                environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("arrived"), "\(result.stdout)")
            // A key Apple does not know: a configuration error, exit 2.
            world.simulator.setAPIKey(SimAPIKey.generate().key)
            let refused = try await CLI.run(
                ["test-notification", "--wait", "5"], databaseURL: service.databaseURL, environment: environment)
            #expect(refused.status == 2, "\(refused.stderr)")
        }
    }
}
